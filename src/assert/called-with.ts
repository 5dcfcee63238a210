/** `assertCalledWith`: some call of a tool had (at least) the given arguments. */
import { oneLine } from '../report/format-value.js'
import type { JsonObject } from '../trace/types.js'
import { requireObject, requireToolName, toTrace, type TraceSource } from './arguments.js'
import { didYouMean, whatWasCalled } from './facts.js'
import { fail } from './fail.js'
import { matches } from './equality.js'
import { render } from './render.js'
import { stringDiffLines } from './string-diff.js'
import { callsOf, type CallRecord } from './tool-calls.js'

function mismatchedKeys(expected: Record<string, unknown>, args: JsonObject): string[] {
  return Object.keys(expected).filter((key) => !matches(expected[key], Object.hasOwn(args, key) ? args[key] : undefined))
}

function describeMismatch(expected: Record<string, unknown>, record: CallRecord, keys: readonly string[]): string {
  const args = record.call.arguments
  const diffs: string[] = []
  const details = keys.map((key) => {
    const want = expected[key]
    const got = Object.hasOwn(args, key) ? args[key] : undefined
    // Two long strings: the words that differ, rather than two walls of text to compare by eye.
    const lines = stringDiffLines(`${key} ([-expected-]{+got+}):`, want, got)
    if (lines !== undefined) {
      diffs.push(...lines)
      return `${key}: differs (below)`
    }
    return `${key}: expected ${render(want)}, got ${got === undefined ? 'missing' : render(got)}`
  })
  const cause = `closest call: ${record.call.name}(${oneLine(args, 100)}) in turn ${record.turn.index}; ${details.join('; ')}`
  return [cause, ...diffs].join('\n')
}

/**
 * Passes when some call of `tool` has every key of `partialArgs` with an
 * equal value (deep equality; other arguments are ignored). Values may be
 * asymmetric matchers: `expect.stringContaining('42')`, `expect.any(Number)`.
 * @example assertCalledWith(trace, 'issue_refund', { order_id: '42', amount: expect.any(Number) })
 */
export function assertCalledWith(source: TraceSource, tool: string, partialArgs: Readonly<Record<string, unknown>>): void {
  const trace = toTrace('assertCalledWith', source)
  requireToolName('assertCalledWith', 'tool', tool)
  const expected = requireObject('assertCalledWith', 'partialArgs', partialArgs)
  const calls = callsOf(trace, tool)
  let best: { record: CallRecord; keys: string[] } | undefined
  for (const record of calls) {
    const keys = mismatchedKeys(expected, record.call.arguments)
    if (keys.length === 0) return
    // Fewest mismatches wins; the earliest call on a tie, as reagent-flow 0.5 does.
    if (best === undefined || keys.length < best.keys.length) best = { record, keys }
  }
  if (best === undefined) {
    fail(trace, `"${tool}" was never called`, { tool, causes: [didYouMean(trace, tool)], facts: [whatWasCalled(trace)] })
  }
  fail(
    trace,
    `"${tool}" was called ${calls.length} time(s) but none matched expected args. ` +
      `Closest mismatch on key(s): ${render(best.keys)}. Expected: ${render(expected)}`,
    {
      tool,
      causes: [describeMismatch(expected, best.record, best.keys)],
      diff: { actual: best.record.call.arguments, expected },
    },
  )
}
