import { describe, expect, it } from 'vitest'
import { renderGolden } from '../../src/golden/index.js'
import type { Trace } from '../../src/trace/types.js'
import { totalsOf, traceDeltas, turnDeltas } from '../../src/viewer/client/deltas.js'
import { buildTrace } from '../helpers/trace-builder.js'

/** A run whose model took `ms` per call, its latency recorded as the adapters record it. */
function run(ms: number, outputTokens: number): Trace {
  const trace = buildTrace(
    'refund-agent',
    [
      { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }], tokens: { input_tokens: 900, output_tokens: 40 }, ms },
      { text: 'Refunded.', tokens: { input_tokens: 1000, output_tokens: outputTokens }, ms },
    ],
    {},
  )
  for (const turn of trace.turns) turn.llm_call.latency_ms = ms
  return trace
}

describe("the Diff page's deltas", () => {
  it('leave latency out against a golden, whose normal form zeroes every latency', () => {
    const golden = renderGolden(run(213.8, 20)).trace
    const actual = run(213.8, 30)
    expect(turnDeltas(golden.turns[1]!, actual.turns[1]!)).toBe('tokens +10')
    expect(totalsOf(golden)).toEqual({ tokens: 1960, latency: null })
    expect(traceDeltas(totalsOf(golden), totalsOf(actual))).toBe('tokens +10')
  })

  it('compare latency where the expected side measured it: two runs', () => {
    const before = run(100, 20)
    const after = run(313.8, 30)
    expect(turnDeltas(before.turns[1]!, after.turns[1]!)).toBe('tokens +10 · latency +213.8ms')
    expect(traceDeltas(totalsOf(before), totalsOf(after))).toBe('tokens +10 · latency +427.6ms')
  })
})
