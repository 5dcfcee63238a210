/**
 * `session(name, opts, fn)`: run agent code with a recorder in scope, then
 * finalise and write its trace, whatever way `fn` ends.
 *
 * The Session records (logLlmCall, logToolResult) while open; once closed it
 * holds the finished trace and what `fn` returned. Its assertion methods are
 * inherited from TraceAssertions (assert/trace-assertions.ts).
 */
import { TraceAssertions } from './assert/trace-assertions.js'
import { assertMatchesBaseline, type BaselineOptions } from './assert/baseline.js'
import { SessionClosedError } from './errors.js'
import { currentSession, runInSession } from './context.js'
import { Recorder, type LlmCallInput, type ToolOutcome, type ToolResultInput } from './recorder.js'
import { checkLlmCall, checkToolResult } from './log-input.js'
import { checkOptions, type SessionOptions } from './session-options.js'
import { startLedgerReport } from './ledger/session-reporter.js'
import type { RedactOption } from './trace/redact.js'
import { recordError } from './trace/recorded-error.js'
import { DEFAULT_TRACE_DIR, sanitizeName, saveTrace } from './storage.js'
import { statusOf } from './trace/facts.js'
import { epochSeconds, ulid } from './trace/ids.js'
import { describeStandIn, toJsonValue, type ValueIssueKind } from './trace/serialize.js'
import type { JsonObject, JsonValue, Trace, TraceStatus } from './trace/types.js'
import { warn } from './warnings.js'

export type SessionFn<T> = (session: Session<T>) => T | PromiseLike<T>

const close = Symbol('close')

function toJsonObject(value: unknown, field: string, onIssue: (kind: ValueIssueKind, path: string) => void): JsonObject {
  const json: JsonValue = toJsonValue(value, (kind, path) => onIssue(kind, path === '' ? field : `${field}.${path}`))
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json
  return { _value: json }
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'CanceledError')
}

export class Session<T = unknown> extends TraceAssertions {
  /** The trace being recorded; complete once the session has closed. */
  override readonly trace: Trace
  readonly #recorder: Recorder
  readonly #options: SessionOptions
  readonly #warnedKinds = new Set<ValueIssueKind>()
  readonly #pendingWork = new Set<PromiseLike<unknown>>()
  readonly #beforeClose: Array<() => unknown> = []
  #closed = false
  #output: T | undefined
  #path: string | undefined

  constructor(name: string, options: SessionOptions = {}, parent: Session<unknown> | undefined = currentSession()) {
    super()
    sanitizeName(name)
    this.#options = options
    const traceId = ulid()
    const onIssue = this.#onValueIssue
    const parentTraceId = options.parentTraceId === undefined ? (parent?.trace.trace_id ?? null) : options.parentTraceId
    this.trace = {
      trace_id: traceId,
      name,
      turns: [],
      metadata: options.metadata === undefined ? {} : toJsonObject(options.metadata, 'metadata', onIssue),
      started_at: epochSeconds(),
      ended_at: null,
      format_version: '1',
      parent_trace_id: parentTraceId,
      handoff_context: options.handoffContext == null ? null : toJsonObject(options.handoffContext, 'handoff_context', onIssue),
      status: 'completed',
      error: null,
      session_id: options.sessionId ?? null,
      user_id: options.userId ?? null,
    }
    this.#recorder = new Recorder(traceId, onIssue)
    this.trace.turns = this.#recorder.turns
  }

  get name(): string {
    return this.trace.name
  }

  get traceId(): string {
    return this.trace.trace_id
  }

  /** True once `fn` has settled and the trace is final. */
  get closed(): boolean {
    return this.#closed
  }

  /** What the session function returned (undefined while open, or when it threw). */
  get output(): T | undefined {
    return this.#output
  }

  /** The file the trace was written to; undefined while open, with `save: false`, or if writing failed. */
  get path(): string | undefined {
    return this.#path
  }

  /** The directory of this session's trace file and golden baseline (the `traceDir` option, default `".reagent"`). */
  get traceDir(): string {
    return this.#options.traceDir ?? DEFAULT_TRACE_DIR
  }

  /** The `redact` option the session was opened with; what it writes, goldens included, is redacted by it. */
  get redact(): RedactOption | undefined {
    return this.#options.redact
  }

  get status(): TraceStatus {
    return statusOf(this.trace)
  }

  /**
   * Records one LLM call as a new turn and returns the call ids of its tool
   * calls (given ones kept, missing ones generated), in order.
   */
  logLlmCall(call: LlmCallInput): string[] {
    if (this.#closed) throw new SessionClosedError(this.trace.name, 'log an LLM call')
    return this.#recorder.logLlmCall(checkLlmCall(call))
  }

  /**
   * Records the result (or error) of a tool call. Finds the call by `callId`,
   * else by being the only pending call of `name`. Two pending calls of `name`
   * without a `callId` throw `AmbiguousToolCallError`; no pending call keeps
   * the result as unmatched, with a warning.
   *
   * `skipIfRecorded` makes a second report of the same call a no-op (adapters
   * use it when a result can be seen twice).
   */
  logToolResult(name: string, result: ToolResultInput & { skipIfRecorded?: boolean } = {}): void {
    if (this.#closed) throw new SessionClosedError(this.trace.name, `log a result of "${name}"`)
    const checked = checkToolResult(name, result)
    this.#recorder.logToolResult(name, checked, checked.skipIfRecorded === true)
  }

  /**
   * For adapters that see a tool's result only in the agent's next request:
   * records `outcome()` as the result of call `callId`, named after its tool.
   * A call this session did not record (history from before it began) or
   * that has a result already (agents resend the whole history; `traceTool`
   * may have recorded it exactly) is left alone, and `outcome` is not called.
   * `durationMs` defaults to the time since the response that made the call.
   */
  logResultOf(callId: string, outcome: () => ToolOutcome, durationMs?: number): void {
    if (this.#closed) throw new SessionClosedError(this.trace.name, `log the result of call "${callId}"`)
    this.#recorder.logResultOf(callId, outcome, durationMs)
  }

  /**
   * For tool wrappers: takes the pending call of `toolName` an execution is
   * about to answer (matching `args`, an object or its JSON text, when several
   * are pending). See `traceTool`.
   */
  claimPendingCall(toolName: string, args?: unknown): string | undefined {
    return this.#recorder.claimPendingCall(toolName, args)
  }

  /** The tool name of a call id recorded in this session. */
  toolNameOf(callId: string): string | undefined {
    return this.#recorder.toolNameOf(callId)
  }

  /**
   * Keeps the session open until `work` settles (for adapters whose callbacks
   * run in the background). Its rejection is ignored: it is not the agent's error.
   */
  track(work: PromiseLike<unknown>): void {
    this.#pendingWork.add(work)
    const forget = (): void => void this.#pendingWork.delete(work)
    work.then(forget, forget)
  }

  /** Runs `hook` (awaited) after `fn` settles and its tracked work is done, before the trace is finalised. */
  beforeClose(hook: () => unknown): void {
    this.#beforeClose.push(hook)
  }

  readonly #onValueIssue = (kind: ValueIssueKind, path: string): void => {
    if (this.#warnedKinds.has(kind)) return
    this.#warnedKinds.add(kind)
    warn(
      'REAGENT_VALUE',
      `session "${this.trace.name}": a ${kind}${path === '' ? '' : ` at ${path}`} in a logged value was ${describeStandIn(kind)}. ` +
        `Further ${kind} values in this session are converted without another warning; log plain JSON to avoid it.`,
    )
  }

  async #settleTrackedWork(): Promise<void> {
    while (this.#pendingWork.size > 0) await Promise.allSettled([...this.#pendingWork])
  }

  async [close](outcome: { ok: true; output: T } | { ok: false; error: unknown }): Promise<void> {
    // Tracked work first: a hook records what is still unfinished, and work
    // that would have finished on its own (a response copy being read) must
    // not be cut short by it. Then again, for work a hook started.
    await this.#settleTrackedWork()
    for (const hook of this.#beforeClose) {
      try {
        await hook()
      } catch (error) {
        warn('REAGENT_ADAPTER', `session "${this.trace.name}": a before-close hook failed: ${String(error)}`)
      }
    }
    await this.#settleTrackedWork()

    this.#closed = true
    const trace = this.trace
    trace.ended_at = Math.max(epochSeconds(), trace.started_at)
    if (outcome.ok) {
      this.#output = outcome.output
    } else {
      trace.status = isCancellation(outcome.error) ? 'cancelled' : 'failed'
      trace.error = recordError(outcome.error)
    }
    if (this.#recorder.orphanResults.length > 0) trace.orphan_results = this.#recorder.orphanResults
    if (this.#options.save === false) return
    try {
      this.#path = saveTrace(trace, {
        traceDir: this.#options.traceDir,
        golden: this.#options.golden === true,
        redact: this.#options.redact,
      })
    } catch (error) {
      // The run itself is not at fault: keep the trace in memory, say why the file is missing.
      warn('REAGENT_WRITE', `session "${trace.name}": the trace could not be written (${String(error)}); it is kept in memory on session.trace.`)
    }
  }

  /**
   * Asserts that this run matches its golden baseline
   * (`<traceDir>/golden/<name>.trace.json`), compared through `diffTraces`
   * with `options`. Throws `AgentAssertionError` with the diff, or
   * `TraceNotFoundError` when there is no golden. Defaults: the session's
   * `traceDir` and `redact`. Returns the session.
   *
   * @example
   * s.assertMatchesBaseline({ ignoreFields: ['response_text'], args: { tools: { search: 'ignore' } } })
   */
  assertMatchesBaseline(options: BaselineOptions = {}): this {
    assertMatchesBaseline(this.trace, { traceDir: this.#options.traceDir, redact: this.#options.redact, ...options })
    return this
  }
}

/**
 * Runs `fn` inside a recording session named `name` and resolves to the
 * closed Session. The trace is finalised and written when `fn` settles; when
 * `fn` throws, the trace is written with status "failed" (or "cancelled" for
 * an AbortError) and the original error is rethrown unchanged.
 *
 * @example
 * const s = await session('refund-agent', async (s) => runAgent('Refund order 42'))
 * s.assertCalled('issue_refund')
 */
export function session<T>(name: string, fn: SessionFn<T>): Promise<Session<T>>
export function session<T>(name: string, options: SessionOptions, fn: SessionFn<T>): Promise<Session<T>>
export async function session<T>(
  name: string,
  optionsOrFn: SessionOptions | SessionFn<T>,
  maybeFn?: SessionFn<T>,
): Promise<Session<T>> {
  const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
  if (typeof fn !== 'function') {
    throw new TypeError(`session(${JSON.stringify(name)}, ...) needs a function to run, as its last argument.`)
  }
  if (typeof name !== 'string') throw new TypeError(`session() needs a name string first, got ${typeof name}.`)
  const options = checkOptions(typeof optionsOrFn === 'function' ? undefined : optionsOrFn)
  const s = new Session<T>(name, options)
  const ledger = startLedgerReport(s.trace, options.ledger)
  let outcome: { ok: true; output: T } | { ok: false; error: unknown }
  try {
    outcome = { ok: true, output: await runInSession(s as Session<unknown>, () => fn(s)) }
  } catch (error) {
    outcome = { ok: false, error }
  }
  await runInSession(s as Session<unknown>, () => s[close](outcome))
  await ledger?.finish(s.trace, s.redact)
  if (!outcome.ok) throw outcome.error
  return s
}
