/**
 * `traceTool(name, fn)`: wrap any tool function so its execution is recorded
 * as the result of the call that requested it, with the exact duration.
 *
 * Which call? The call id a framework passes in the tool's context when there
 * is one (AI SDK `toolCallId`, LangChain `toolCall.id`, or your own `callId`
 * option); else the pending call of that name, matching arguments when the
 * model asked for the same tool more than once.
 *
 * A call may fail instead of running: when the session's `faults` name the
 * tool, or its `limits` have been passed (admitTool).
 */
import { currentSession } from '../session/context.js'
import type { ToolOutcome } from '../session/recorder.js'
import { STEPS } from '../replay/session-feature.js'
import type { Session } from '../session/session.js'
import { isThenable } from '../base/thenable.js'
import { warn } from '../warnings/warnings.js'
import { internals } from '../session/internals.js'

export interface TraceToolOptions<Args extends unknown[]> {
  /**
   * Reads the call id from the tool's arguments. Default: looks for
   * `toolCallId`, `toolCall.id`, `tool_call_id` or `callId` on any object argument.
   * @example { callId: (input, ctx) => ctx.id }
   */
  callId?: (...args: Args) => string | undefined
}

/** Finds a framework-provided call id among the tool's arguments. */
function findCallId(args: readonly unknown[]): string | undefined {
  for (const arg of args) {
    if (arg === null || typeof arg !== 'object') continue
    const candidate = arg as { toolCallId?: unknown; tool_call_id?: unknown; callId?: unknown; toolCall?: { id?: unknown } }
    for (const value of [candidate.toolCallId, candidate.toolCall?.id, candidate.tool_call_id, candidate.callId]) {
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return undefined
}

function record(s: Session, name: string, callId: string | undefined, outcome: ToolOutcome, durationMs: number, injected: boolean): void {
  try {
    s.logToolResult(name, { ...outcome, ...(callId === undefined ? {} : { callId }), durationMs, skipIfRecorded: true, ...(injected ? { injected } : {}) })
  } catch (error) {
    // The tool did its job; failing to record it must not fail the agent.
    warn('REAGENT_ADAPTER', `traceTool("${name}"): the result could not be recorded (${String(error)}).`)
  }
}

/**
 * Runs `fn` and calls `settle` once with how it ended (the value it returned,
 * awaited when it is a promise, or the error it threw), how long that took,
 * and whether it returned a promise. Returns what `fn` returns; an error
 * reaches the caller unchanged.
 */
export function measure<R>(fn: () => R, settle: (outcome: ToolOutcome, durationMs: number, isAsync: boolean) => void): R {
  const started = performance.now()
  let value: R
  try {
    value = fn()
  } catch (error) {
    settle({ error }, performance.now() - started, false)
    throw error
  }
  if (!isThenable(value)) {
    settle({ result: value }, performance.now() - started, false)
    return value
  }
  return Promise.resolve(value).then(
    (result) => {
      settle({ result }, performance.now() - started, true)
      return result
    },
    (error: unknown) => {
      settle({ error }, performance.now() - started, true)
      throw error
    },
  ) as R
}

/** The tool as a call of it runs: `fn`, or `fails`, when the run's limits stop the call or a fault replaces it. */
export interface AdmittedTool<R> {
  run: () => R
  /** The call fails with a fault the `faults` option injected. */
  injected: boolean
}

/**
 * What a call of tool `name` runs in session `s`, decided as the call
 * starts (it counts the call): `fn`; or a function that throws the run's
 * `BudgetExceededError` or the injected fault instead, as a rejected
 * promise when `isAsync` (the tool is an async function), so the caller
 * sees the failure the way the tool reports its own.
 */
export function admitTool<R>(s: Session, name: string, fn: () => R, isAsync = false): AdmittedTool<R> {
  const stop = s[internals].admitToolCall(name)
  if (stop === undefined) return { run: fn, injected: false }
  const fail = (): never => {
    throw stop.error
  }
  return { run: isAsync ? () => Promise.reject(stop.error) as R : fail, injected: stop.injected }
}

/**
 * Runs `fn` as tool `name` in session `s`: records its value or error, with
 * the exact duration, as the result of call `callId` (else of the pending
 * call of `name` it claims, matching `args`). A call the run's limits stop,
 * or a fault replaces (see admitTool), fails instead of running, and is
 * recorded so. A run the session can answer (`resume()`, `replayTools`) is
 * played back from the step it recorded instead of running `fn`; every run
 * that completes is kept as a step.
 */
export function runToolIn<R>(s: Session, name: string, callId: string | undefined, args: unknown, fn: () => R, isAsync = false): R {
  const id = callId ?? s[internals].claimPendingCall(name, args)
  const { run, injected } = admitTool(s, name, fn, isAsync)
  const answer = run === fn ? s[internals].get(STEPS)?.answerTool(name, args) : undefined
  if (answer === undefined) return measure(run, (outcome, durationMs) => record(s, name, id, outcome, durationMs, injected))
  if (answer.kind === 'recorded') return measure(answer.run as () => R, (outcome, durationMs) => record(s, name, id, outcome, durationMs, false))
  return measure(fn, (outcome, durationMs, settledLater) => {
    record(s, name, id, outcome, durationMs, false)
    answer.done(outcome, settledLater)
  })
}

/** Whether `fn` is an `async function` (its result, a failure included, is always a promise). */
function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncFunction'
}

/**
 * Wraps a tool function (sync or async) so each execution inside a session is
 * recorded as the result of its call. The wrapper has the same signature.
 *
 * @example
 * const lookupOrder = traceTool('lookup_order', async ({ id }: { id: string }) => db.orders.find(id))
 */
export function traceTool<Args extends unknown[], R>(name: string, fn: (...args: Args) => R, options: TraceToolOptions<Args> = {}): (...args: Args) => R {
  if (typeof fn !== 'function') throw new TypeError(`traceTool("${name}", fn) needs a function, got ${typeof fn}.`)
  const wrapped = function (this: unknown, ...args: Args): R {
    const s = currentSession()
    if (s === undefined) return fn.apply(this, args)
    const callId = options.callId !== undefined ? options.callId(...args) : findCallId(args.slice(1))
    return runToolIn(s, name, callId, args[0], () => fn.apply(this, args), isAsyncFunction(fn))
  }
  Object.defineProperty(wrapped, 'name', { value: fn.name || name })
  return wrapped
}
