/**
 * `session(name, opts, fn)`: run agent code with a recorder in scope, then
 * finalise and write its trace, whatever way `fn` ends.
 *
 * The Session records (logLlmCall, logToolResult) while open; once closed it
 * holds the finished trace and what `fn` returned. Its assertion methods are
 * inherited from TraceAssertions (assert/trace-assertions.ts).
 */
import { TraceAssertions } from '../assert/trace-assertions.js'
import { assertMatchesBaseline, type BaselineOptions } from '../assert/baseline.js'
import { AgentAssertionError, SessionClosedError, type BudgetExceededError } from '../errors/index.js'
import { currentSession, runInSession, testScopeOfSession, type TestScope } from './context.js'
import { FaultPlan } from '../faults/fault-plan.js'
import { attachFaults } from '../faults/run-faults.js'
import { budgetStopOf } from '../limits/budget-stop.js'
import { RunGuard } from '../limits/run-guard.js'
import { sessionClosed, sessionOpened } from './open-sessions.js'
import { Recorder, type LlmCallInput, type ToolOutcome, type ToolResultInput } from './recorder.js'
import { checkLlmCall, checkToolResult } from './log-input.js'
import { startLedgerReport, type LedgerReport } from '../ledger/session-reporter.js'
import { RunFiles } from './run-files.js'
import { checkOptions, type SessionOptions } from './options.js'
import type { RedactOption } from '../redact/index.js'
import { recordError } from '../trace/recorded-error.js'
import { matchGolden, resolveUpdateMode, shownPath } from '../golden/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import { locateRun, type RunLocation } from './run-location.js'
import { isResume, openSteps, stepsOf, type StepsOptions } from '../replay/attach.js'
import { sanitizeName } from '../storage/index.js'
import { statusOf } from '../trace/facts.js'
import { epochSeconds, ulid } from '../trace/ids.js'
import { describeStandIn, nameIssue, toJsonValue, type ValueIssueKind } from '../trace/serialize.js'
import type { JsonObject, JsonValue, Trace, TraceStatus } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { hooks, type SessionHooks } from './internals.js'

/**
 * The function a session runs. Its parameter is a plain `Session` (its
 * output is not known while it runs): were it `Session<T>`, TypeScript would
 * fix `T` as `unknown` before reading the return type of `async (s) => ...`.
 */
export type SessionFn<T> = (session: Session) => T | PromiseLike<T>

const close = Symbol('close')

function toJsonObject(value: unknown, field: string, onIssue: (kind: ValueIssueKind, path: string) => void): JsonObject {
  const json: JsonValue = toJsonValue(value, (kind, path) => onIssue(kind, path === '' ? field : `${field}.${path}`))
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json
  return { _value: json }
}

/** Names of the errors that mean the run was stopped on purpose (an AbortSignal, a user abort in an SDK), not that it failed. */
const CANCELLATIONS = new Set(['AbortError', 'CanceledError', 'APIUserAbortError', 'TestRunAbortError'])

function isCancellation(error: unknown): boolean {
  // By the name a trace records: the SDKs' errors often keep the name "Error" and say what they are by their class.
  return CANCELLATIONS.has(recordError(error).name)
}

type Outcome<T> = { ok: true; output: T } | { ok: false; error: unknown }

/**
 * The Session `session()` resolves to. It resolves only when the function
 * returned (it rejects with the function's error otherwise), so `output` is
 * what the function returned, typed `T`.
 */
export type ClosedSession<T> = Session<T> & { readonly output: T }

export class Session<T = unknown> extends TraceAssertions {
  /** The trace being recorded; complete once the session has closed. */
  override readonly trace: Trace
  readonly #recorder: Recorder
  readonly #options: SessionOptions
  readonly #warnedKinds = new Set<ValueIssueKind>()
  readonly #pendingWork = new Set<PromiseLike<unknown>>()
  readonly #beforeClose: Array<() => unknown> = []
  readonly #files: RunFiles | undefined
  /** The run ledger this run reports to (the `ledger` option, REAGENT_LEDGER_URL), if any. */
  readonly #ledger: LedgerReport | undefined
  #ledgerDone: Promise<void> | undefined
  /** Set first: the options are converted (and may warn, naming the session) before the trace exists. */
  readonly #name: string
  readonly #testScope: TestScope | undefined
  /** Where its files go: traceDir, the run file, and inside vitest its test. */
  readonly #location: RunLocation
  /** Sessions opened inside this one (sub-agents, handoffs), in the order they opened. */
  readonly #children: Session<unknown>[] = []
  /** A `golden: true` comparison that failed: session() rejects with it (unless the agent's own error comes first). */
  #goldenFailure: AgentAssertionError | undefined
  #closed = false
  /** Closed from outside (a signal, a test that ended first) while its function still runs: later logs are dropped quietly. */
  #isDetached = false
  #hasWarnedDropped = false
  #output: T | undefined
  #path: string | undefined
  /** The `limits` of this run, or of the session it was opened inside (shared: a sub-agent counts toward them). */
  readonly #guard: RunGuard | undefined
  /** The `faults` of this run, or of the session it was opened inside. */
  readonly #faults: FaultPlan | undefined

  /** What adapters, tool wrappers and the test runner do to the session; not for its user (see internals.ts). */
  readonly [hooks]: SessionHooks = {
    recordModelCall: (call) => this.#recordModelCall(call),
    admitModelCall: () => this.#admitModelCall(),
    admitToolCall: (tool) => this.#admitToolCall(tool),
    logResultOf: (callId, outcome, durationMs) => this.#logResultOf(callId, outcome, durationMs),
    claimPendingCall: (toolName, args) => this.#claimPendingCall(toolName, args),
    toolNameOf: (callId) => this.#toolNameOf(callId),
    track: (work) => this.#track(work),
    beforeClose: (hook) => this.#addBeforeClose(hook),
    closeNow: (status, reason) => this.#closeNow(status, reason),
    explainFailureInTest: () => this.#explainFailureInTest(),
    goldenFailure: () => this.#goldenFailure,
    askGolden: () => this.#askGolden(),
  }

  /** `traceFields`: extra top-level fields of the trace (a repeated run's `repeat`), there before any file is written. */
  constructor(name: string, options: SessionOptions = {}, parent: Session<unknown> | undefined = currentSession(), traceFields?: Readonly<JsonObject>) {
    super()
    sanitizeName(name)
    this.#name = name
    this.#options = options
    const traceId = ulid()
    const onIssue = this.#onValueIssue
    const parentTraceId = options.parentTraceId === undefined ? (parent?.trace.trace_id ?? null) : options.parentTraceId
    this.#testScope = testScopeOfSession()
    this.#location = locateRun(name, options.traceDir, this.#testScope, isResume(options))
    this.#guard = options.limits !== undefined ? new RunGuard(options.limits) : parent === undefined ? undefined : parent.#guard
    this.#faults = options.faults !== undefined ? new FaultPlan(options.faults) : parent === undefined ? undefined : parent.#faults
    attachFaults(this, this.#faults)
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
      status: 'active',
      error: null,
      session_id: options.sessionId ?? null,
      user_id: options.userId ?? null,
      ...this.#location.test,
      ...traceFields,
    }
    // Before any file is opened: a bad REAGENT_REPLAY or recording throws here, and a resumed trace names its run from the start.
    const steps = openSteps(this, this.trace, options as StepsOptions, this.#location.runPath, parent)
    if (parent !== undefined) parent.#children.push(this as Session<unknown>)
    this.#recorder = new Recorder(traceId, onIssue)
    this.trace.turns = this.#recorder.turns
    // Before any file is opened: a bad `ledger` option is a TypeError. Git is asked for the revision at the vitest root (else the working directory).
    this.#ledger = startLedgerReport(this.trace, options.ledger, options.redact, this.#testScope?.root)
    if (options.save !== false) {
      this.#files = new RunFiles(this.trace, this.trace.turns, {
        runPath: this.#location.runPath,
        redact: options.redact,
        journal: options.journal !== false,
      })
      this.#recorder.listener = this.#files.listener
      steps?.attachJournal(this.#files.steps)
    }
    this.#testScope?.openSessions.add(this as Session<unknown>)
    // Only a session with a file to write has something to save when the process ends first.
    if (this.#files !== undefined) sessionOpened(this)
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

  /** What the session function returned (undefined while open, or when it threw); typed `T` on the Session `session()` resolves to. */
  get output(): T | undefined {
    return this.#output
  }

  /** The file the trace was written to; undefined while open, with `save: false`, or if writing failed. */
  get path(): string | undefined {
    return this.#path
  }

  /**
   * The directory of this session's trace file and golden baseline: the
   * `traceDir` option, default `".reagent"`; inside vitest, resolved against
   * the project root.
   */
  get traceDir(): string {
    return this.#location.traceDir
  }

  /** The sessions opened inside this one (sub-agents, handoffs), in the order they opened; see also `loadChain(session)`. */
  get children(): readonly Session<unknown>[] {
    return this.#children
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
    return this.#logLlmCall(call, false)
  }

  /**
   * For adapters (adapter-support's ModelCall): records a model call that
   * `admitModelCall()` let through before it was made. As `logLlmCall`, but
   * never stopped by the run's limits, only counted toward them.
   */
  #recordModelCall(call: LlmCallInput): string[] {
    return this.#logLlmCall(call, true)
  }

  #logLlmCall(call: LlmCallInput, isAdmitted: boolean): string[] {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped('an LLM call', [])
      throw new SessionClosedError(this.trace.name, 'log an LLM call')
    }
    const ids = this.#recorder.logLlmCall(checkLlmCall(call))
    const guard = this.#guard
    if (guard === undefined) return ids
    // A call the agent logged itself has happened: it is kept, and past a limit (`limits`) the run stops here.
    const stop = isAdmitted ? undefined : guard.stopAfterLoggedModelCall(this.trace.name)
    guard.count(this.trace.turns.at(-1)!.llm_call, this.trace.name)
    if (stop !== undefined) throw stop
    return ids
  }

  /**
   * For adapters: a model call is about to be made. Returns the
   * `BudgetExceededError` to throw instead when the run has gone past one of
   * its limits (the `limits` option); otherwise counts the call toward them.
   */
  #admitModelCall(): BudgetExceededError | undefined {
    return this.#guard?.stopBeforeModelCall(this.trace.name)
  }

  /**
   * For tool wrappers (`traceTool`): tool `tool` is about to run. Returns
   * what the call fails with instead of running: a `BudgetExceededError`
   * (the run went past a limit) or an injected fault (the `faults` option,
   * `injected: true`); undefined when it runs.
   */
  #admitToolCall(tool: string): { error: unknown; injected: boolean } | undefined {
    const stop = this.#guard?.stopBeforeToolCall(this.trace.name, tool)
    if (stop !== undefined) return { error: stop, injected: false }
    const fault = this.#faults?.toolCall(tool)
    return fault === undefined ? undefined : { error: fault.error, injected: true }
  }

  /**
   * Records the result (or error) of a tool call. Finds the call by `callId`,
   * else by being the only pending call of `name`. Two pending calls of `name`
   * without a `callId` throw `AmbiguousToolCallError`; no pending call keeps
   * the result as unmatched, with a warning.
   *
   * `skipIfRecorded` makes a second report of the same call a no-op (adapters
   * use it when a result can be seen twice). `injected` marks the result as
   * an injected fault: its turn gets `injected: true` and the call id in
   * `injected_results` (the result itself keeps exactly its four keys).
   */
  logToolResult(name: string, result: ToolResultInput & { skipIfRecorded?: boolean; injected?: boolean } = {}): void {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped(`a result of "${name}"`, undefined)
      throw new SessionClosedError(this.trace.name, `log a result of "${name}"`)
    }
    const checked = checkToolResult(name, result)
    this.#recorder.logToolResult(name, checked, checked.skipIfRecorded === true, checked.injected === true)
  }

  /**
   * For adapters that see a tool's result only in the agent's next request:
   * records `outcome()` as the result of call `callId`, named after its tool.
   * A call this session did not record (history from before it began) or
   * that has a result already (agents resend the whole history; `traceTool`
   * may have recorded it exactly) is left alone, and `outcome` is not called.
   * `durationMs` defaults to the time since the response that made the call.
   */
  #logResultOf(callId: string, outcome: () => ToolOutcome, durationMs?: number): void {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped(`the result of call "${callId}"`, undefined)
      throw new SessionClosedError(this.trace.name, `log the result of call "${callId}"`)
    }
    this.#recorder.logResultOf(callId, outcome, durationMs)
  }

  /**
   * For tool wrappers: takes the pending call of `toolName` an execution is
   * about to answer (matching `args`, an object or its JSON text, when several
   * are pending). See `traceTool`.
   */
  #claimPendingCall(toolName: string, args?: unknown): string | undefined {
    return this.#recorder.claimPendingCall(toolName, args)
  }

  /** The tool name of a call id recorded in this session. */
  #toolNameOf(callId: string): string | undefined {
    return this.#recorder.toolNameOf(callId)
  }

  /**
   * Keeps the session open until `work` settles (for adapters whose callbacks
   * run in the background). Its rejection is ignored: it is not the agent's error.
   */
  #track(work: PromiseLike<unknown>): void {
    this.#pendingWork.add(work)
    const forget = (): void => void this.#pendingWork.delete(work)
    work.then(forget, forget)
  }

  /** Runs `hook` (awaited) after `fn` settles and its tracked work is done, before the trace is finalised. */
  #addBeforeClose(hook: () => unknown): void {
    this.#beforeClose.push(hook)
  }

  readonly #onValueIssue = (kind: ValueIssueKind, path: string): void => {
    if (this.#warnedKinds.has(kind)) return
    this.#warnedKinds.add(kind)
    const { one, many } = nameIssue(kind)
    warn(
      'REAGENT_VALUE',
      `session "${this.#name}": ${one}${path === '' ? '' : ` at ${path}`} in a logged value was ${describeStandIn(kind)}. ` +
        `Further ${many} in this session are converted without another warning; log plain JSON to avoid it.`,
    )
  }

  async #settleTrackedWork(): Promise<void> {
    while (this.#pendingWork.size > 0) await Promise.allSettled([...this.#pendingWork])
  }

  /** A log call reached a session closed from outside: dropped, with one warning. */
  #dropped<R>(what: string, value: R): R {
    if (!this.#hasWarnedDropped) {
      this.#hasWarnedDropped = true
      warn(
        'REAGENT_DROPPED',
        `session "${this.trace.name}" was closed as ${this.trace.status} (${this.trace.interruption_reason ?? 'closed from outside'}) while its agent still ran; ` +
          `${what} and whatever the agent logs after it are dropped.`,
      )
    }
    return value
  }

  async [close](outcome: Outcome<T>): Promise<void> {
    // Kept also when the session was closed from outside first: the function did return it.
    if (outcome.ok) this.#output = outcome.output
    if (this.#closed) return
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
    // Closed from outside while the hooks ran (a signal, the test's end).
    if (this.#closed) return
    const end = outcome.ok
      ? ({ status: 'completed' } as const)
      : { status: isCancellation(outcome.error) ? ('cancelled' as const) : ('failed' as const), error: outcome.error }
    // A run its limits stopped is cancelled with the limit as its reason, whether the agent rethrew the stop or caught it.
    const stop = budgetStopOf(this.#guard, outcome.ok ? undefined : outcome.error)
    this.#finish(stop === undefined ? end : { ...end, status: 'cancelled', reason: stop.reason })
    await this.#ledgerDone
  }

  /**
   * Closes the session now, while its function may still run: as
   * `cancelled` (a signal, a test that timed out) or `interrupted` (the
   * process is exiting), with `reason`, and writes its trace synchronously.
   * What the agent logs afterwards is dropped with one warning. Open model
   * calls are recorded as cut short (the before-close hooks run, their
   * asynchronous part is not waited for). Does nothing on a closed session.
   */
  #closeNow(status: 'cancelled' | 'interrupted', reason: string): void {
    if (this.#closed) return
    for (const hook of this.#beforeClose) {
      try {
        const pending = hook() as { catch?: (f: () => void) => void } | undefined
        pending?.catch?.(() => undefined)
      } catch {
        // The run is being cut short: a hook that cannot record is not worth stopping for.
      }
    }
    this.#isDetached = true
    this.#finish({ status, reason })
  }

  /** Finalises the trace and writes it; the one place a session becomes closed. */
  #finish(end: { status: Exclude<TraceStatus, 'active'>; error?: unknown; reason?: string }): void {
    this.#closed = true
    this.#testScope?.openSessions.delete(this as Session<unknown>)
    sessionClosed(this)
    const trace = this.trace
    trace.ended_at = Math.max(epochSeconds(), trace.started_at)
    trace.status = end.status
    if ('error' in end) trace.error = recordError(end.error)
    if (end.reason !== undefined) trace.interruption_reason = end.reason
    if (this.#recorder.orphanResults.length > 0) trace.orphan_results = this.#recorder.orphanResults
    // The journal first: the synchronous writes below hold the event loop, so its timer cannot flush during them.
    this.#files?.flushJournal()
    // Record/replay and resume: what the run replayed, its recording written, unused recorded calls reported.
    const steps = stepsOf(this)
    steps?.close(trace, end.status)
    if (steps?.pruned !== undefined) this.#testScope?.recordPruned(steps.pruned)
    const isGoldenRun = this.#options.golden === true && end.status === 'completed'
    // In the file from the start: `approve --all` approves the runs that asked for their golden.
    if (isGoldenRun) trace.golden = true
    this.#writeFiles(trace)
    // After the local file: a ledger that is slow or down never costs the trace. Never throws; before
    // the golden, which may throw (a bad REAGENT_UPDATE), so the ledger always hears that the run ended.
    this.#ledgerDone = this.#ledger?.finish(trace, this.#options.redact)
    // Only a run that finished is a baseline: a failed or cut-short one is never compared or written.
    if (isGoldenRun) this.#matchGolden()
  }

  /** See SessionHooks.askGolden: marked once; a closed run's file is written again with the mark. */
  #askGolden(): void {
    if (this.trace.golden === true) return
    this.trace.golden = true
    if (!this.#closed || this.#path === undefined) return
    try {
      this.#files?.rewrite(this.trace)
    } catch (error) {
      warn(
        'REAGENT_WRITE',
        `session "${this.trace.name}": its trace file could not be marked as compared with its golden (${error instanceof Error ? error.message : String(error)}); ` +
          `reagent-flow approve --all approves it only once it has a golden.`,
      )
    }
  }

  /**
   * `golden: true`: the run against its golden through the same engine and
   * update mode as `toMatchGolden()` (written when missing, compared
   * otherwise; under CI never written). A mismatch is kept for session() to reject with.
   */
  #matchGolden(): void {
    const scope = this.#testScope
    const result = matchGolden(this.trace, {
      traceDir: this.#location.traceDir,
      redact: this.#options.redact,
      update: resolveUpdateMode({ vitestUpdate: scope?.update() }),
      runPath: this.#path,
    })
    scope?.recordGolden({ path: result.path, outcome: result.outcome })
    if (result.written !== null && result.written !== 'unchanged') console.info(result.message)
    if (!result.pass) {
      this.#goldenFailure = new AgentAssertionError(result.message, {
        traceName: this.trace.name,
        assertion: result.outcome === 'missing' ? `"${this.trace.name}" has no golden baseline` : `"${this.trace.name}" does not match its golden baseline`,
      })
    }
  }

  /**
   * Inside a test: should the test fail, its output also shows this run's
   * agent stack trace and the file it was written to (the error itself is
   * rethrown untouched).
   */
  #explainFailureInTest(): void {
    this.#testScope?.explainFailure((testErrors) => {
      const where = this.#path === undefined ? 'the trace was not written (see the warning above)' : `trace: ${shownPath(this.#path)}`
      // The test's own error (the run's, most often) is vitest's to print: named here, not printed twice more.
      const stack = formatStackTrace(this.trace, { color: false, shownElsewhere: testErrors })
      return `reagent-flow: session "${this.trace.name}" ended ${this.trace.status}. What the agent did:\n${stack}\n${where}`
    })
  }

  #writeFiles(trace: Trace): void {
    const files = this.#files
    if (files === undefined) return
    try {
      files.write(trace)
      this.#path = files.runPath
    } catch (error) {
      files.abandon(trace, error)
      // The run itself is not at fault: keep the trace in memory, say why the file is missing.
      warn(
        'REAGENT_WRITE',
        `session "${trace.name}": the trace could not be written (${error instanceof Error ? error.message : String(error)}); it is kept in memory on session.trace.`,
      )
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
    this.#askGolden()
    assertMatchesBaseline(this.trace, { traceDir: this.#location.traceDir, redact: this.#options.redact, ...options })
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
export function session<T>(name: string, fn: SessionFn<T>): Promise<ClosedSession<T>>
export function session<T>(name: string, options: SessionOptions, fn: SessionFn<T>): Promise<ClosedSession<T>>
export async function session<T>(name: string, optionsOrFn: SessionOptions | SessionFn<T>, maybeFn?: SessionFn<T>): Promise<ClosedSession<T>> {
  const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
  if (typeof fn !== 'function') {
    throw new TypeError(`session(${JSON.stringify(name)}, ...) needs a function to run, as its last argument.`)
  }
  if (typeof name !== 'string') throw new TypeError(`session() needs a name string first, got ${typeof name}.`)
  const options = checkOptions(typeof optionsOrFn === 'function' ? undefined : optionsOrFn)
  const run = await runSession(name, options, fn)
  const s = run.session
  if (run.threw) {
    s[hooks].explainFailureInTest()
    // The very same value, untouched: what the agent threw is the test's to see.
    throw run.error
  }
  const goldenFailure = s[hooks].goldenFailure()
  if (goldenFailure !== undefined) throw goldenFailure
  const unused = stepsOf(s)?.failure
  if (unused !== undefined) throw unused
  return s as ClosedSession<T>
}

/** How a session's function ended: the closed session, and what the function threw, if it did. */
export type SessionRun<T> = { session: Session<T>; threw: false } | { session: Session<T>; threw: true; error: unknown }

/**
 * The work of `session()` with checked options, resolving to how the
 * function ended instead of rethrowing (`repeat` keeps every run, failed or
 * not). `traceFields` are extra top-level fields of the trace.
 */
export async function runSession<T>(name: string, options: SessionOptions, fn: SessionFn<T>, traceFields?: Readonly<JsonObject>): Promise<SessionRun<T>> {
  const s = new Session<T>(name, options, currentSession(), traceFields)
  let outcome: Outcome<T>
  try {
    outcome = { ok: true, output: await runInSession(s as Session<unknown>, () => fn(s)) }
  } catch (error) {
    outcome = { ok: false, error }
  }
  await runInSession(s as Session<unknown>, () => s[close](outcome))
  return outcome.ok ? { session: s, threw: false } : { session: s, threw: true, error: outcome.error }
}
