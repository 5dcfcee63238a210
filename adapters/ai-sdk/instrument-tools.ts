/**
 * `instrumentTools(tools)`: the tools object with each `execute` recording
 * its execution as the result of the call that asked for it (the SDK passes
 * the call's `toolCallId`): the value, or the error thrown, and the exact
 * duration. The middleware cannot do this: it sees model calls only.
 */
import type { ToolExecutionOptions, ToolSet } from 'ai'
import { admitTool, currentSession, measure, runToolIn, type Session } from '../../src/adapter-support/index.js'
import { logOrHoldResult } from './held-results.js'
import { internals } from '../../src/adapter-support/index.js'

type Execute = (this: unknown, input: unknown, options: ToolExecutionOptions) => unknown

const wrappedExecutes = new WeakSet<object>()

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
}

interface Relay {
  /** What the SDK reads: the tool's outputs, unchanged. */
  iterable: AsyncIterable<unknown>
  /** The last output once the SDK has read them all (the SDK's "final" output), or the error. */
  last: Promise<unknown>
}

/** A tool that streams outputs (an async iterable): its result is the last one. */
function relayLast(source: AsyncIterable<unknown>): Relay {
  let settle!: { resolve: (value: unknown) => void; reject: (error: unknown) => void }
  const last = new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }))
  async function* iterate(): AsyncGenerator<unknown> {
    let latest: unknown
    try {
      for await (const output of source) {
        latest = output
        yield output
      }
    } catch (error) {
      settle.reject(error)
      throw error
    } finally {
      settle.resolve(latest)
    }
  }
  return { iterable: iterate(), last }
}

/**
 * Runs `execute` through `measured`, which times it and records the outcome.
 * A tool that streams outputs (an async iterable) is measured until its last
 * output: `measured` gets a promise of it, the SDK gets the outputs.
 */
function runMeasured(execute: () => unknown, measured: (run: () => unknown) => unknown): unknown {
  const relayed: { relay?: Relay } = {}
  const value = measured(() => {
    const output = execute()
    if (!isAsyncIterable(output)) return output
    relayed.relay = relayLast(output)
    return relayed.relay.last
  })
  if (relayed.relay === undefined)
    return value
    // The SDK reads (and sees errors through) the iterable; this promise only feeds the recording.
  ;(value as Promise<unknown>).catch(() => undefined)
  return relayed.relay.iterable
}

/** Records one execution into `s`, in which the call is (or is about to be) recorded. */
function runInto(s: Session, name: string, callId: string | undefined, input: unknown, execute: () => unknown): unknown {
  if (callId !== undefined && s[internals].toolNameOf(callId) === undefined) {
    // The tool started before its call was in the trace (see held-results.ts): measure, then log or hold.
    const { run: admitted, injected } = admitTool(s, name, execute)
    return runMeasured(admitted, (run) => measure(run, (outcome, durationMs) => logOrHoldResult(s, callId, { name, outcome, durationMs, injected })))
  }
  return runMeasured(execute, (run) => runToolIn(s, name, callId, input, run))
}

function instrumentExecute(name: string, execute: Execute): Execute {
  const wrapped: Execute = function (this: unknown, input, options) {
    const run = (): unknown => execute.call(this, input, options)
    const callId = typeof options?.toolCallId === 'string' && options.toolCallId !== '' ? options.toolCallId : undefined
    const s = currentSession()
    if (s === undefined) return run()
    return runInto(s, name, callId, input, run)
  }
  wrappedExecutes.add(wrapped)
  return wrapped
}

function instrumentTool(name: string, tool: unknown): unknown {
  if (tool === null || typeof tool !== 'object') return tool
  const execute = (tool as { execute?: unknown }).execute
  if (typeof execute !== 'function' || wrappedExecutes.has(execute)) return tool
  // A copy with every property as it is (getters, symbols, prototype); only execute differs.
  const copy = Object.create(Object.getPrototypeOf(tool) as object | null, Object.getOwnPropertyDescriptors(tool)) as object
  Object.defineProperty(copy, 'execute', {
    value: instrumentExecute(name, execute as Execute),
    writable: true,
    enumerable: true,
    configurable: true,
  })
  return copy
}

/**
 * Returns `tools` with each tool's `execute` recording, inside a session, the
 * value it returned (the last one for a tool that streams outputs) or the
 * error it threw (rethrown unchanged), with the exact duration, as the result
 * of the call the SDK passes by `toolCallId`. Tools without `execute` and
 * everything else on the tools are kept as they are; the given object is not
 * modified. Outside a session the tools just run.
 *
 * @example
 * await generateText({ model, tools: instrumentTools({ lookupOrder, issueRefund }), stopWhen: stepCountIs(5), prompt })
 */
export function instrumentTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(
      `instrumentTools(tools) needs the tools object you pass to generateText or streamText ({ name: tool(...) }), got ${
        tools === null ? 'null' : Array.isArray(tools) ? 'an array' : typeof tools
      }.`,
    )
  }
  const instrumented: Record<string, unknown> = {}
  for (const [name, tool] of Object.entries(tools)) instrumented[name] = instrumentTool(name, tool)
  return instrumented as TOOLS
}
