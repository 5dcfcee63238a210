/**
 * Matchers about tool calls: toHaveCalledTool, toHaveCalledToolWith,
 * toHaveCalledToolTimes. Each is a core assertion (src/assert/) run as a
 * matcher, plus the message `.not` needs.
 */
import type { MatcherState } from 'vitest'
import { requireObject, requireToolName } from '../assert/arguments.js'
import { assertCalled, assertCalledTimes, assertNeverCalled, type CallCount } from '../assert/calls.js'
import { assertCalledWith } from '../assert/called-with.js'
import { whereCalled } from '../assert/facts.js'
import { render } from '../assert/render.js'
import { callsOf, type CallRecord } from '../assert/tool-calls.js'
import { oneLine, plural } from '../report/format-value.js'
import { describeFailure, failureMessage, outcomeOf, receivedTrace, underMatcherName, type MatcherOutcome } from './outcome.js'

export function toHaveCalledTool(this: MatcherState, received: unknown, tool: string): MatcherOutcome {
  const name = 'toHaveCalledTool'
  const trace = receivedTrace(name, received)
  requireToolName(name, 'tool', tool)
  return outcomeOf(
    () => assertCalled(trace, tool),
    () => failureMessage(() => assertNeverCalled(trace, tool)),
  )
}

/** `arguments[key]` as the agent sent it; a key it did not send (also `constructor`) is undefined. */
const argument = (record: CallRecord, key: string): unknown => (Object.hasOwn(record.call.arguments, key) ? record.call.arguments[key] : undefined)

export function toHaveCalledToolWith(this: MatcherState, received: unknown, tool: string, partialArgs: Readonly<Record<string, unknown>>): MatcherOutcome {
  const name = 'toHaveCalledToolWith'
  const trace = receivedTrace(name, received)
  requireToolName(name, 'tool', tool)
  const expected = requireObject(name, 'partialArgs', partialArgs)
  // vitest's own equality, so equality testers added with expect.addEqualityTesters count too.
  const keys = Object.keys(expected)
  const match = callsOf(trace, tool).find((record) => keys.every((key) => this.equals(argument(record, key), expected[key], this.customTesters)))
  if (match !== undefined) {
    return {
      pass: true,
      message: () =>
        describeFailure(trace, `expected no call of "${tool}" with ${render(expected)}, but the call in turn ${match.turn.index} matched`, {
          tool,
          causes: [`matching call: ${tool}(${oneLine(match.call.arguments, 100)}) in turn ${match.turn.index}`],
        }),
    }
  }
  const outcome = outcomeOf(
    () => assertCalledWith(trace, tool, expected),
    () =>
      describeFailure(trace, `"${tool}" was called but no call matched ${render(expected)} by vitest's equality (toEqual, with the equality testers added)`, {
        tool,
      }),
  )
  // Where the core's equality found a match that vitest's refused (a custom tester, -0 against 0), vitest's decides.
  return { ...outcome, pass: false }
}

function describeCount(times: CallCount): string {
  const calls = (n: number): string => plural(n, 'time')
  if (typeof times === 'number') return calls(times)
  const { min, max } = times
  if (min !== undefined && max !== undefined) return min === max ? calls(min) : `between ${min} and ${calls(max)}`
  if (max !== undefined) return `at most ${calls(max)}`
  return `at least ${calls(min ?? 0)}`
}

export function toHaveCalledToolTimes(this: MatcherState, received: unknown, tool: string, times: CallCount): MatcherOutcome {
  const name = 'toHaveCalledToolTimes'
  const trace = receivedTrace(name, received)
  requireToolName(name, 'tool', tool)
  return outcomeOf(
    () => underMatcherName(name, 'assertCalledTimes', () => assertCalledTimes(trace, tool, times)),
    () => {
      const count = callsOf(trace, tool).length
      return describeFailure(trace, `expected "${tool}" not to be called ${describeCount(times)}, but it was called ${plural(count, 'time')}`, {
        tool,
        causes: count === 0 ? [] : [whereCalled(trace, tool)],
      })
    },
  )
}
