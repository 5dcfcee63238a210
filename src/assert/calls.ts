/**
 * Which tools ran, how often, in what order, and whether they succeeded.
 * Semantics and messages follow reagent-flow 0.5; values print as JSON.
 */
import { oneLine } from '../report/format-value.js'
import { describeToolError } from '../report/stack-trace.js'
import { countToolCalls } from '../trace/facts.js'
import type { Trace } from '../trace/types.js'
import { requireCount, requireOptions, requireToolName, toTrace, type TraceSource } from './arguments.js'
import { didYouMean, repeatedCall, whatWasCalled, whereCalled } from './facts.js'
import { fail } from './fail.js'
import { render } from './render.js'
import { callsOf, flattenToolCalls, toolNames } from './tool-calls.js'

function failNeverCalled(trace: Trace, tool: string, assertion: string): never {
  fail(trace, assertion, { tool, causes: [didYouMean(trace, tool)], facts: [whatWasCalled(trace)] })
}

const neverCalled = (trace: Trace, tool: string): string => `"${tool}" was never called (${trace.turns.length} turns, ${countToolCalls(trace)} tool calls)`

/**
 * Passes when `tool` was called at least once.
 * @example assertCalled(trace, 'lookup_order')
 */
export function assertCalled(source: TraceSource, tool: string): void {
  const trace = toTrace('assertCalled', source)
  requireToolName('assertCalled', 'tool', tool)
  if (!toolNames(trace).includes(tool)) failNeverCalled(trace, tool, neverCalled(trace, tool))
}

/**
 * Passes when `tool` was never called; the failure lists the turn of each call.
 * @example assertNeverCalled(trace, 'delete_account')
 */
export function assertNeverCalled(source: TraceSource, tool: string): void {
  const trace = toTrace('assertNeverCalled', source)
  requireToolName('assertNeverCalled', 'tool', tool)
  const calls = callsOf(trace, tool)
  const first = calls[0]
  if (first === undefined) return
  fail(trace, `"${tool}" was called in turn(s) ${render(calls.map((r) => r.turn.index))}`, {
    tool,
    causes: [`the first call was ${tool}(${oneLine(first.call.arguments, 100)}) in turn ${first.turn.index}`],
  })
}

/**
 * Passes when the first call of `first` comes before the first call of
 * `second`, by position in the flat list of tool calls (so parallel calls of
 * one turn are ordered too).
 * @example assertCalledBefore(trace, 'check_policy', 'issue_refund')
 */
export function assertCalledBefore(source: TraceSource, first: string, second: string): void {
  const trace = toTrace('assertCalledBefore', source)
  requireToolName('assertCalledBefore', 'first', first)
  requireToolName('assertCalledBefore', 'second', second)
  const records = flattenToolCalls(trace)
  const a = records.find((r) => r.call.name === first)
  const b = records.find((r) => r.call.name === second)
  if (a === undefined) failNeverCalled(trace, first, `"${first}" was never called`)
  if (b === undefined) failNeverCalled(trace, second, `"${second}" was never called`)
  if (a.position < b.position) return
  fail(trace, `"${first}" (position ${a.position}) was not called before "${second}" (position ${b.position})`, {
    tool: first,
    causes: [
      `"${second}" was first called in turn ${b.turn.index}, "${first}" only in turn ${a.turn.index}; call order: ${records.map((r) => r.call.name).join(', ')}`,
    ],
  })
}

/**
 * Passes when `tool` was called and every call has a result without an error.
 * @example assertToolSucceeded(trace, 'issue_refund')
 */
export function assertToolSucceeded(source: TraceSource, tool: string): void {
  const trace = toTrace('assertToolSucceeded', source)
  requireToolName('assertToolSucceeded', 'tool', tool)
  const calls = callsOf(trace, tool)
  if (calls.length === 0) failNeverCalled(trace, tool, neverCalled(trace, tool))
  for (const { call, turn, results } of calls) {
    const args = `${tool}(${oneLine(call.arguments, 100)})`
    if (results.length === 0) {
      fail(trace, `"${tool}" in turn ${turn.index} has no recorded result`, {
        tool,
        causes: [
          `${args} (call_id ${call.call_id}) got no result: log it with logToolResult("${tool}", { callId: "${call.call_id}", ... }), or wrap the tool with traceTool()`,
        ],
      })
    }
    const failed = results.find((result) => result.error !== null)
    if (failed !== undefined) {
      fail(trace, `"${tool}" failed in turn ${turn.index}: ${failed.error}`, {
        tool,
        causes: [describeToolError(tool, call.arguments, turn.index, failed.error ?? '')],
      })
    }
  }
}

/** How many calls `assertCalledTimes` accepts: exactly `n`, or between `min` and `max`. @example { min: 1, max: 3 } */
export type CallCount =
  | number
  | {
      /** The fewest calls allowed. Default: 0. */
      min?: number
      /** The most calls allowed. Default: no limit. */
      max?: number
    }

/**
 * Passes when `tool` was called between `min` (default 0) and `max` (default
 * unbounded) times; a number means exactly that many.
 * @example assertCalledTimes(trace, 'search', { min: 1, max: 3 })
 * @example assertCalledTimes(trace, 'issue_refund', 1)
 */
export function assertCalledTimes(source: TraceSource, tool: string, times: CallCount): void {
  const fn = 'assertCalledTimes'
  const trace = toTrace(fn, source)
  requireToolName(fn, 'tool', tool)
  let min: number
  let max: number | undefined
  if (typeof times === 'number') {
    min = max = requireCount(fn, 'times', times)
  } else {
    const options = requireOptions(fn, times, ['min', 'max'])
    min = options.min === undefined ? 0 : requireCount(fn, 'min', options.min)
    max = options.max === undefined ? undefined : requireCount(fn, 'max', options.max)
    if (max !== undefined && max < min) throw new RangeError(`${fn}(): max (${max}) is less than min (${min}).`)
  }
  const calls = callsOf(trace, tool)
  const count = calls.length
  const where = count === 0 ? undefined : whereCalled(trace, tool)
  // The diff shows the count against the bound it broke.
  if (count < min) {
    const causes = count === 0 ? [didYouMean(trace, tool)] : []
    fail(trace, `"${tool}" called ${count} times, expected at least ${min}`, {
      tool,
      causes,
      facts: [where, whatWasCalled(trace)],
      diff: { actual: count, expected: min },
    })
  }
  if (max !== undefined && count > max) {
    fail(trace, `"${tool}" called ${count} times, expected at most ${max}`, {
      tool,
      causes: [repeatedCall(trace)],
      facts: [where],
      diff: { actual: count, expected: max },
    })
  }
}
