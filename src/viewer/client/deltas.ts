/**
 * The token and latency deltas of the Diff page. Latency is compared only
 * where the expected side measured it: a golden's normal form zeroes every
 * latency and duration (and reagent-flow 0.5 writes 0 for a turn's), so
 * against a golden a run would always read hundreds of milliseconds slower
 * than nothing, a change that is not one.
 */
import type { Trace, Turn } from '../../trace/types.js'
import { formatDelta } from './format.js'
import { turnLatency, turnTokens } from './trace-facts.js'

/** A turn's input and output tokens together; 0 when it recorded none. */
export function tokensOf(turn: Turn | undefined): number {
  const tokens = turn === undefined ? null : turnTokens(turn)
  return tokens === null ? 0 : tokens.input + tokens.output
}

/** A turn's latency as measured; null when it is 0: not measured, or zeroed by a golden's normal form. */
export function measuredLatency(turn: Turn): number | null {
  const latency = turnLatency(turn)
  return latency > 0 ? latency : null
}

export interface TraceTotals {
  tokens: number
  /** Over the turns that measured one; null when none did (a golden). */
  latency: number | null
}

export function totalsOf(trace: Trace): TraceTotals {
  let tokens = 0
  let latency: number | null = null
  for (const turn of trace.turns) {
    tokens += tokensOf(turn)
    const measured = measuredLatency(turn)
    if (measured !== null) latency = (latency ?? 0) + measured
  }
  return { tokens, latency }
}

/** `tokens +12 · latency +427.6ms`; without the latency when `before` (the expected side) has none to compare with. */
function deltasText(tokens: number, before: number | null, after: number | null): string {
  const latency = before === null ? '' : ` · latency ${formatDelta((after ?? 0) - before, 'ms')}`
  return `tokens ${formatDelta(tokens)}${latency}`
}

/** The deltas of two aligned turns, expected (`before`) and actual. */
export function turnDeltas(before: Turn, after: Turn): string {
  return deltasText(tokensOf(after) - tokensOf(before), measuredLatency(before), measuredLatency(after))
}

/** The deltas of two whole traces, from their totals. */
export function traceDeltas(before: TraceTotals, after: TraceTotals): string {
  return deltasText(after.tokens - before.tokens, before.latency, after.latency)
}
