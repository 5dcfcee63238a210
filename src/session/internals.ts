/**
 * What adapters, tool wrappers, features and the test runner do to a session
 * that its user never does: record a model call they admitted, keep the
 * session open for background work, close it from outside, keep their own
 * state on it. Reached through one symbol, `session[internals]`, exported
 * from this internal module only, so a Session's public surface is what a
 * test needs: its trace, its output and the assertions.
 *
 * The recording state lives here (the recorder, open or closed, the work
 * still running); Session's public methods are this object's, with the
 * public checks in front. Each method is documented here, once.
 */
import { SessionClosedError } from '../errors/index.js'
import { shownPath } from '../golden/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import { recordError } from '../trace/recorded-error.js'
import { epochSeconds } from '../trace/ids.js'
import type { LlmCall, Trace } from '../trace/types.js'
import type { ToolSet } from '../trace/tool-sets.js'
import { warn } from '../warnings/warnings.js'
import type { TestScope } from './test-scope.js'
import type { Lifecycle, SessionEnd } from './lifecycle.js'
import { checkLlmCall, checkToolResult } from './log-input.js'
import type { LlmCallInput, Recorder, ToolOutcome, ToolResultInput } from './recorder.js'
import type { RunLocation } from './run-location.js'
import type { RecordingOptions } from './options.js'

export const internals: unique symbol = Symbol('reagent-flow session internals')

/**
 * The key of one feature's state on a session (its replay steps, its fault
 * plan, its limits): made by the feature, so the value's type is known only
 * where the feature reads it, and no other module reaches it by accident.
 */
export class FeatureKey<T> {
  /** The type of the value, for the compiler only. */
  declare readonly value: T
  constructor(readonly name: string) {}
}

/** What a call is refused with instead of being made: `injected` for a fault the `faults` option injected. */
export interface Refusal {
  error: unknown
  injected: boolean
}

/**
 * A feature that may refuse a call before it is made or stop the run after
 * one (limits, faults). A question with an answer, so not a lifecycle event;
 * the gates are asked in the order their features attached.
 */
export interface CallGate {
  /** A model call is about to be made: the error to throw instead, or undefined (the call is counted). */
  beforeModelCall?(sessionName: string): Error | undefined
  /** A model call was recorded (`isAdmitted`: an adapter asked `beforeModelCall` first): the error that stops the run now, if any. */
  afterModelCall?(call: LlmCall, isAdmitted: boolean, sessionName: string): Error | undefined
  /** Tool `tool` is about to run (a `traceTool` call): what it fails with instead, if anything. */
  beforeToolCall?(tool: string, sessionName: string): Refusal | undefined
}

/** How a session's function settled. */
export type Outcome<T> = { ok: true; output: T } | { ok: false; error: unknown }

/** Names of the errors that mean the run was stopped on purpose (an AbortSignal, a user abort in an SDK), not that it failed. */
const CANCELLATIONS = new Set(['AbortError', 'CanceledError', 'APIUserAbortError', 'TestRunAbortError'])

function isCancellation(error: unknown): boolean {
  // By the name a trace records: the SDKs' errors often keep the name "Error" and say what they are by their class.
  return CANCELLATIONS.has(recordError(error).name)
}

/** What a Session gives its internals as it opens. */
export interface SessionParts {
  trace: Trace
  recorder: Recorder
  lifecycle: Lifecycle
  options: RecordingOptions
  location: RunLocation
  testScope: TestScope | undefined
}

export class SessionInternals<T = unknown> {
  /** The trace being recorded; complete once the session has closed. */
  readonly trace: Trace
  /** What the session announces as it lives, to the features that subscribed (see lifecycle.ts). */
  readonly lifecycle: Lifecycle
  /** The options the session was opened with, checked. */
  readonly options: RecordingOptions
  /** Where its files go: traceDir, the run file, and inside vitest its test. */
  readonly location: RunLocation
  /** The vitest test the session was opened in, if any. */
  readonly testScope: TestScope | undefined
  /** The file the trace was written to (set by the run files once written); undefined while open, with `save: false`, or if writing failed. */
  path: string | undefined
  /** What the session function returned. */
  output: T | undefined
  readonly #recorder: Recorder
  readonly #state = new Map<FeatureKey<unknown>, unknown>()
  readonly #gates: CallGate[] = []
  readonly #pendingWork = new Set<PromiseLike<unknown>>()
  readonly #beforeClose: Array<() => unknown> = []
  #closed = false
  /** Closed from outside (a signal, a test that ended first) while its function still runs: later logs are dropped quietly. */
  #isDetached = false
  #hasWarnedDropped = false

  constructor(parts: SessionParts) {
    this.trace = parts.trace
    this.#recorder = parts.recorder
    this.lifecycle = parts.lifecycle
    this.options = parts.options
    this.location = parts.location
    this.testScope = parts.testScope
  }

  /** True once the session's function has settled (or it was closed from outside) and the trace is final. */
  get closed(): boolean {
    return this.#closed
  }

  /** The state a feature keeps on this session under `key`, if it set any. */
  get<V>(key: FeatureKey<V>): V | undefined {
    return this.#state.get(key) as V | undefined
  }

  /** Keeps `value` as the state of the feature of `key` on this session. */
  set<V>(key: FeatureKey<V>, value: V): void {
    this.#state.set(key, value)
  }

  /** Asks `gate` before every model and tool call, after the gates added before it. */
  addGate(gate: CallGate): void {
    this.#gates.push(gate)
  }

  /**
   * Records one model call as a new turn; the ids of its tool calls, in order.
   * `isAdmitted`: an adapter asked `admitModelCall()` before making it, so the
   * run's limits only count it; a call the agent logged itself has happened,
   * is kept, and past a limit stops the run here.
   */
  logLlmCall(call: LlmCallInput, isAdmitted: boolean, toolSet?: ToolSet): string[] {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped('an LLM call', [])
      throw new SessionClosedError(this.trace.name, 'log an LLM call')
    }
    const checked = checkLlmCall(call)
    // Stored before the turn is announced, so whoever hears of the turn finds its set.
    if (toolSet !== undefined) this.keepToolSet(toolSet)
    const ids = this.#recorder.logLlmCall(checked, toolSet?.id)
    const gates = this.#gates
    if (gates.length === 0) return ids
    const recorded = this.trace.turns.at(-1)!.llm_call
    let stop: Error | undefined
    for (const gate of gates) {
      // Every gate hears of the call (limits count it), the first stop wins.
      const gateStop = gate.afterModelCall?.(recorded, isAdmitted, this.trace.name)
      stop ??= gateStop
    }
    if (stop !== undefined) throw stop
    return ids
  }

  /** Stores a set of tools offered once, the first time a call (or an MCP server's listing) offers it, and announces it (the journal keeps it). */
  keepToolSet({ id, tools }: ToolSet): void {
    const sets = (this.trace.tool_sets ??= {})
    if (sets[id] !== undefined) return
    sets[id] = tools
    this.lifecycle.emit('tool-set', id, tools)
  }

  /** For adapters: records a model call that `admitModelCall()` let through before it was made (`logLlmCall(call, true)`), with the tools its request offered. */
  recordModelCall(call: LlmCallInput, toolSet?: ToolSet): string[] {
    return this.logLlmCall(call, true, toolSet)
  }

  /**
   * For adapters: a model call is about to be made. The error to throw
   * instead (a `BudgetExceededError` when the run went past one of its
   * `limits`); otherwise the call is counted toward them.
   */
  admitModelCall(): Error | undefined {
    for (const gate of this.#gates) {
      const stop = gate.beforeModelCall?.(this.trace.name)
      if (stop !== undefined) return stop
    }
    return undefined
  }

  /**
   * For tool wrappers (`traceTool`): tool `tool` is about to run. What the
   * call fails with instead of running: a `BudgetExceededError` (the run went
   * past a limit) or an injected fault (the `faults` option, `injected:
   * true`); undefined when it runs.
   */
  admitToolCall(tool: string): Refusal | undefined {
    for (const gate of this.#gates) {
      const refusal = gate.beforeToolCall?.(tool, this.trace.name)
      if (refusal !== undefined) return refusal
    }
    return undefined
  }

  /** Records the result (or error) of a tool call: Session.logToolResult, which says what `skipIfRecorded` and `injected` do. */
  logToolResult(name: string, result: ToolResultInput & { skipIfRecorded?: boolean; injected?: boolean }): void {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped(`a result of "${name}"`, undefined)
      throw new SessionClosedError(this.trace.name, `log a result of "${name}"`)
    }
    const checked = checkToolResult(name, result)
    this.#recorder.logToolResult(name, checked, checked.skipIfRecorded === true, checked.injected === true)
  }

  /**
   * For adapters that see a tool's result only in the agent's next request
   * (agents resend the whole history, so a call from before the session
   * began, or one `traceTool` recorded already, comes by too): records
   * `outcome()` as the result of call `callId`, as Recorder.logResultOf says.
   */
  logResultOf(callId: string, outcome: () => ToolOutcome, durationMs?: number): void {
    if (this.#closed) {
      if (this.#isDetached) return this.#dropped(`the result of call "${callId}"`, undefined)
      throw new SessionClosedError(this.trace.name, `log the result of call "${callId}"`)
    }
    this.#recorder.logResultOf(callId, outcome, durationMs)
  }

  /**
   * For tool wrappers: takes the pending call of `toolName` an execution is
   * about to answer (matching `args`, an object or its JSON text, when several
   * are pending); see `traceTool` and Recorder.claimPendingCall.
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

  /** Runs `hook` (awaited) after the session's function settled and its tracked work is done, before the trace is finalised. */
  beforeClose(hook: () => unknown): void {
    this.#beforeClose.push(hook)
  }

  /**
   * Closes the session once its function settled with `outcome`: runs the
   * tracked work and the before-close hooks, finalises the trace (the
   * `ended` listeners may still change how it ended) and tells the features.
   */
  async close(outcome: Outcome<T>): Promise<void> {
    // Kept also when the session was closed from outside first: the function did return it.
    if (outcome.ok) this.output = outcome.output
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
    const end: SessionEnd = outcome.ok ? { status: 'completed' } : { status: isCancellation(outcome.error) ? 'cancelled' : 'failed', error: outcome.error }
    this.lifecycle.emit('ended', end, outcome.ok ? undefined : outcome.error)
    this.#finish(end)
  }

  /**
   * Closes the session now, while its function may still run: as
   * `cancelled` (a signal, a test that timed out) or `interrupted` (the
   * process is exiting), with `reason`, and writes its trace synchronously.
   * What the agent logs afterwards is dropped with one warning. Open model
   * calls are recorded as cut short (the before-close hooks run, their
   * asynchronous part is not waited for). Does nothing on a closed session.
   */
  closeNow(status: 'cancelled' | 'interrupted', reason: string): void {
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

  /** Finalises the trace and tells the features (which write it); the one place a session becomes closed. */
  #finish(end: SessionEnd): void {
    this.#closed = true
    this.testScope?.openSessions.delete(this)
    const trace = this.trace
    trace.ended_at = Math.max(epochSeconds(), trace.started_at)
    trace.status = end.status
    if ('error' in end) trace.error = recordError(end.error)
    if (end.reason !== undefined) trace.interruption_reason = end.reason
    if (this.#recorder.orphanResults.length > 0) trace.orphan_results = this.#recorder.orphanResults
    try {
      this.lifecycle.emit('closing', trace, end.status)
      this.lifecycle.emit('closed', trace, end.status)
    } finally {
      // Once its file is written (or not), also when a feature threw (a bad REAGENT_UPDATE): the test's results list every run.
      this.testScope?.recordRun(trace, this.path)
    }
  }

  /**
   * The run was compared with its golden (`toMatchGolden()`,
   * `assertMatchesBaseline`): its trace says so (`golden: true`), once; a
   * closed run's file is written again with the mark, so that
   * `reagent-flow approve --all` approves it.
   */
  askGolden(): void {
    if (this.trace.golden === true) return
    this.trace.golden = true
    if (this.#closed) this.lifecycle.emit('amended', this.trace)
  }

  /**
   * Inside a test: should the test fail, its output also shows this run's
   * agent stack trace and the file it was written to (the error itself is
   * rethrown untouched).
   */
  explainFailureInTest(): void {
    this.testScope?.explainFailure((testErrors) => {
      const where = this.path === undefined ? 'the trace was not written (see the warning above)' : `trace: ${shownPath(this.path)}`
      // The test's own error (the run's, most often) is vitest's to print: named here, not printed twice more.
      const stack = formatStackTrace(this.trace, { color: false, shownElsewhere: testErrors })
      return `reagent-flow: session "${this.trace.name}" ended ${this.trace.status}. What the agent did:\n${stack}\n${where}`
    })
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
}
