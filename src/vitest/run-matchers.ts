/**
 * Matchers about the run as a whole: toMatchFlow (the order of tool calls)
 * and toHaveSucceeded (the run completed and every tool call succeeded).
 */
import type { MatcherState } from 'vitest'
import { assertToolSucceeded } from '../assert/calls.js'
import { assertFlow } from '../assert/flow.js'
import { whatWasCalled } from '../assert/facts.js'
import { render } from '../assert/render.js'
import { flattenToolCalls, toolNames } from '../assert/tool-calls.js'
import { plural } from '../report/format-value.js'
import { statusOf } from '../trace/facts.js'
import { describeFailure, outcomeOf, receivedTrace, underMatcherName, type MatcherOutcome } from './outcome.js'

export function toMatchFlow(this: MatcherState, received: unknown, pattern: readonly string[]): MatcherOutcome {
  const name = 'toMatchFlow'
  const trace = receivedTrace(name, received)
  return outcomeOf(
    () => underMatcherName(name, 'assertFlow', () => assertFlow(trace, pattern)),
    () => {
      return describeFailure(trace, `expected the tool calls not to match ${render(pattern)}, but they did: ${render(toolNames(trace))}`, {
        causes: [whatWasCalled(trace)],
      })
    },
  )
}

export function toHaveSucceeded(this: MatcherState, received: unknown): MatcherOutcome {
  const trace = receivedTrace('toHaveSucceeded', received)
  const status = statusOf(trace)
  if (status !== 'completed') {
    const reason = trace.error
      ? `: ${trace.error.name}: ${trace.error.message}`
      : trace.interruption_reason === undefined
        ? ''
        : `: ${trace.interruption_reason}`
    const how = { active: 'is still being recorded', cancelled: 'was cancelled', interrupted: 'was interrupted', failed: 'failed' }[status]
    const headline = `expected the run to succeed, but it ${how}${reason}`
    return { pass: false, message: () => describeFailure(trace, headline), actual: status, expected: 'completed' }
  }
  const records = flattenToolCalls(trace)
  // The earliest call without a clean result; the core assertion of its tool reports exactly that call.
  const broken = records.find((record) => record.results.length === 0 || record.results.some((result) => result.error !== null))
  return outcomeOf(
    () => {
      if (broken !== undefined) assertToolSucceeded(trace, broken.call.name)
    },
    () => {
      const calls = records.length === 0 ? 'made no tool call' : `all ${plural(records.length, 'tool call')} succeeded`
      return describeFailure(trace, `expected the run not to succeed, but it completed and ${calls}`, { causes: [whatWasCalled(trace)] })
    },
  )
}
