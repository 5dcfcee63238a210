/** Budgets of steps and time: `assertMaxTurns`, `assertTotalDurationUnder`. */
import { formatDuration } from '../report/format-value.js'
import { epochSeconds } from '../trace/ids.js'
import type { Trace, Turn } from '../trace/types.js'
import { requireCount, requireLimit, requireOptions, toTrace, type TraceSource } from './arguments.js'
import { repeatedCall } from './facts.js'
import { fail } from './fail.js'
import { formatApart } from './render.js'
import { flattenToolCalls } from './tool-calls.js'

/**
 * Passes when the trace has at most `n` turns (LLM calls).
 * @example assertMaxTurns(trace, 5)
 */
export function assertMaxTurns(source: TraceSource, n: number): void {
  const trace = toTrace('assertMaxTurns', source)
  requireCount('assertMaxTurns', 'n', n)
  if (trace.turns.length <= n) return
  fail(trace, `Expected at most ${n} turns, got ${trace.turns.length}`, {
    causes: [repeatedCall(trace)],
    diff: { actual: trace.turns.length, expected: n },
  })
}

function slowest(trace: Trace): string[] {
  const facts: string[] = []
  let call: { text: string; ms: number } | undefined
  for (const { call: toolCall, turn, results } of flattenToolCalls(trace)) {
    for (const result of results) {
      if (result.duration_ms > (call?.ms ?? 0)) {
        call = { text: `${toolCall.name} took ${formatDuration(result.duration_ms)} in turn ${turn.index}`, ms: result.duration_ms }
      }
    }
  }
  if (call !== undefined) facts.push(`the slowest tool call: ${call.text}`)
  let turn: Turn | undefined
  for (const t of trace.turns) if (t.duration_ms > (turn?.duration_ms ?? 0)) turn = t
  if (turn !== undefined) facts.push(`the slowest turn: turn ${turn.index} took ${formatDuration(turn.duration_ms)}`)
  return facts
}

export interface DurationOptions {
  /** The longest the run may take, in milliseconds. Required. @example { ms: 5_000 } */
  ms: number
}

/**
 * Passes when the run took at most `ms` milliseconds, from `started_at` to
 * `ended_at` (to now while the session is still open).
 * @example assertTotalDurationUnder(trace, { ms: 5_000 })
 */
export function assertTotalDurationUnder(source: TraceSource, options: DurationOptions): void {
  const fn = 'assertTotalDurationUnder'
  const trace = toTrace(fn, source)
  const ms = requireLimit(fn, 'ms', requireOptions(fn, options, ['ms']).ms)
  const end = trace.ended_at ?? epochSeconds()
  const actual = (end - trace.started_at) * 1000
  if (actual <= ms) return
  const [shown, limit] = formatApart(actual, ms)
  fail(trace, `Total duration ${shown}ms exceeds limit of ${limit}ms`, {
    causes: slowest(trace),
    facts: [trace.ended_at === null ? 'the session is still open: the duration was measured until now' : undefined],
  })
}
