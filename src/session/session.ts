/**
 * The Session: a recorder with the trace assertions (inherited from
 * TraceAssertions, assert/trace-assertions.ts). It records (logLlmCall,
 * logToolResult) while open; once closed it holds the finished trace and
 * what its function returned.
 *
 * It announces its life (lifecycle.ts) to the features it is opened with
 * (src/run/features.ts lists them and says why in that order) and imports
 * none of them: run files, replay steps, limits, faults, the ledger and
 * goldens subscribe. `session()` (src/run/session.ts) opens one with every
 * feature and runs its function.
 */
import { TraceAssertions } from '../assert/trace-assertions.js'
import { assertMatchesBaseline, type BaselineOptions } from '../assert/baseline.js'
import { sanitizeName } from '../storage/index.js'
import type { RedactOption } from '../redact/index.js'
import { markWithinDepth } from '../trace/depth.js'
import { statusOf } from '../trace/facts.js'
import { epochSeconds, ulid } from '../trace/ids.js'
import { describeStandIn, nameIssue, toJsonValue, type ValueIssueKind } from '../trace/serialize.js'
import type { Spend } from '../trace/spend.js'
import type { JsonObject, JsonValue, Trace, TraceStatus } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { HELPER_RUNS } from './helper-run-list.js'
import { internals, SessionInternals } from './internals.js'
import { Lifecycle } from './lifecycle.js'
import { isResume, type RecordingOptions } from './options.js'
import { Recorder, type LlmCallInput, type ToolResultInput } from './recorder.js'
import { locateRun } from './run-location.js'
import { sessionSpend } from './spend.js'
import type { TestScope } from './test-scope.js'

/**
 * A feature of a session (run files, replay, limits, ...): attached as the
 * session opens, before any file is written, it subscribes to the session's
 * lifecycle and keeps its state on the session's internals. It may throw to
 * refuse its options (a bad `ledger` URL): the session is then not opened.
 * It is given the whole options of `session()` (run/options.ts), and types
 * its parameter as the recording's options and its own.
 */
export interface SessionFeature {
  attach(session: Session, options: RecordingOptions, parent: Session | undefined): void
}

/** How a session is opened: its features, in order, and the vitest test it is opened in. */
export interface SessionSetup {
  features: readonly SessionFeature[]
  testScope: TestScope | undefined
}

function toJsonObject(value: unknown, field: string, onIssue: (kind: ValueIssueKind, path: string) => void): JsonObject {
  const json: JsonValue = toJsonValue(value, (kind, path) => onIssue(kind, path === '' ? field : `${field}.${path}`))
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json
  return { _value: json }
}

export class Session<T = unknown> extends TraceAssertions {
  /** The trace being recorded; complete once the session has closed. */
  override readonly trace: Trace
  /** What adapters, tool wrappers, features and the test runner do to the session; not for its user (see internals.ts). */
  readonly [internals]: SessionInternals<T>
  readonly #warnedKinds = new Set<ValueIssueKind>()
  /** Set first: the options are converted (and may warn, naming the session) before the trace exists. */
  readonly #name: string
  /** Sessions opened inside this one (sub-agents, handoffs), in the order they opened. */
  readonly #children: Session<unknown>[] = []

  /**
   * `parent`: the session this one is opened inside, if any. `traceFields`:
   * extra top-level fields of the trace (a repeated run's `repeat`), there
   * before any file is written. `setup`: its features, and its test.
   */
  constructor(
    name: string,
    options: RecordingOptions = {},
    parent: Session<unknown> | undefined = undefined,
    traceFields?: Readonly<JsonObject>,
    setup: SessionSetup = { features: [], testScope: undefined },
  ) {
    super()
    sanitizeName(name)
    this.#name = name
    const traceId = ulid()
    const onIssue = this.#onValueIssue
    const parentTraceId = options.parentTraceId === undefined ? (parent?.trace.trace_id ?? null) : options.parentTraceId
    const { testScope } = setup
    const location = locateRun(name, options.traceDir, testScope, isResume(options))
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
      ...location.test,
      ...traceFields,
    }
    const lifecycle = new Lifecycle()
    const recorder = new Recorder(traceId, onIssue, lifecycle)
    this.trace.turns = recorder.turns
    // Every value it will hold goes through the recorder, which cuts at 64 levels: the public entry points need not walk it for depth.
    markWithinDepth(this.trace)
    const inner = new SessionInternals<T>({ trace: this.trace, recorder, lifecycle, options, location, testScope })
    this[internals] = inner
    // Before any file is opened: a feature that refuses its options (a bad REAGENT_REPLAY, a bad `ledger` URL) throws here.
    for (const feature of setup.features) feature.attach(this as Session<unknown>, options, parent)
    if (parent !== undefined) parent.#children.push(this as Session<unknown>)
    lifecycle.emit('opened')
    // Once its files are open (opening them may throw): the test closes what it still finds open when it ends.
    testScope?.openSessions.add(inner)
  }

  get name(): string {
    return this.trace.name
  }

  get traceId(): string {
    return this.trace.trace_id
  }

  /** True once `fn` has settled and the trace is final. */
  get closed(): boolean {
    return this[internals].closed
  }

  /** What the session function returned (undefined while open, or when it threw); typed `T` on the Session `session()` resolves to. */
  get output(): T | undefined {
    return this[internals].output
  }

  /** The file the trace was written to; undefined while open, with `save: false`, or if writing failed. */
  get path(): string | undefined {
    return this[internals].path
  }

  /**
   * The directory of this session's trace file and golden baseline: the
   * `traceDir` option, default `".reagent"`; inside vitest, resolved against
   * the project root.
   */
  get traceDir(): string {
    return this[internals].location.traceDir
  }

  /** The sessions opened inside this one (sub-agents, handoffs), in the order they opened; see also `loadChain(session)`. */
  get children(): readonly Session<unknown>[] {
    return this.#children
  }

  /** The `redact` option the session was opened with; what it writes, goldens included, is redacted by it. */
  get redact(): RedactOption | undefined {
    return this[internals].options.redact
  }

  get status(): TraceStatus {
    return statusOf(this.trace)
  }

  /**
   * Records one LLM call as a new turn and returns the call ids of its tool
   * calls (given ones kept, missing ones generated), in order.
   */
  logLlmCall(call: LlmCallInput): string[] {
    return this[internals].logLlmCall(call, false)
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
    this[internals].logToolResult(name, result)
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

  /**
   * What the run spent, part by part: `agent` (this session's own model
   * calls), `user` (its simulated user), `judge` (its judges), `tools` (its
   * simulated tools' model), and `total`; each `{ inputTokens, outputTokens,
   * tokens, usd, unpricedModels }`, priced with the built-in price table (and
   * a `REAGENT_PRICES` file). The agent's budgets (toCostLessThan,
   * toStayWithinTokens, assertCostUnder, limits) count `agent` alone: the
   * helpers are runs of their own.
   * @example const { agent, judge } = s.spend()
   */
  spend(): Spend {
    return sessionSpend(this.trace, this[internals].get(HELPER_RUNS) ?? [])
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
    this[internals].askGolden()
    assertMatchesBaseline(this.trace, { traceDir: this.traceDir, redact: this.redact, ...options })
    return this
  }
}
