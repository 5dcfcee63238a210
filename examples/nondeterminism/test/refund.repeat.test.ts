// test/refund.repeat.test.ts
import { expect } from 'vitest'
import { repeat, type RunPosition, type Session } from 'reagent-flow'
import { test } from 'reagent-flow/vitest'

// Stands in for a live model that is right most of the time: run n draws its choice from a
// generator seeded with n, so this file passes (and fails) the same way on every machine.
function seeded(seed: number): number {
  let t = (seed + 0x6d2b79f5) >>> 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

function refundAgent(s: Session, run: RunPosition): string {
  const refunds = seeded(1000 + run.index) < 0.7
  const [lookup] = s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }], model: 'gpt-4o-mini', tokenUsage: { input_tokens: 400, output_tokens: 30 } })
  s.logToolResult('lookup_order', { callId: lookup!, result: { amount: 19.99 } })
  const tool = refunds ? 'issue_refund' : 'escalate'
  const [decision] = s.logLlmCall({ toolCalls: [{ name: tool, arguments: { order_id: '42' } }], model: 'gpt-4o-mini', tokenUsage: { input_tokens: 500, output_tokens: 30 } })
  s.logToolResult(tool, { callId: decision!, result: { ok: true } })
  return refunds ? 'Refunded $19.99.' : 'A colleague will look at it.'
}

test('refunds order 42 in at least 80% of runs', async () => {
  const runs = await repeat(10, 'refund agent', { concurrency: 5 }, (s, run) => refundAgent(s, run))
  const refunds = (run: Session): void => expect(run).toHaveCalledTool('issue_refund')

  expect(runs).toPassInAtLeast(0.8, refunds)
  expect(runs.passRate(refunds)).toBe(0.8)
  expect(runs.passAny(refunds)).toBe(true) // pass@10: it can do it
  expect(runs.passAll(refunds)).toBe(false) // pass^10: it does not always

  const summary = runs.summary(refunds)
  expect(summary.perRun.filter((run) => !run.passed).map((run) => [run.index, run.failure])).toEqual([
    [7, '"issue_refund" was never called (2 turns, 2 tool calls)'],
    [8, '"issue_refund" was never called (2 turns, 2 tool calls)'],
  ])
  expect(summary.tokens.mean).toBe(960)
  console.table(summary.perRun.map(({ index, status, passed, tokens, usd, durationMs }) => ({ index, status, passed, tokens, usd: usd?.toFixed(6), durationMs })))
})
