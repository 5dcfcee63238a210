// test/refund.test.ts
import { describe, expect } from 'vitest'
import { session, type Session } from 'reagent-flow'
import { test } from 'reagent-flow/vitest'

// A refund agent, logged by hand to keep the example short (an adapter records the same turns).
function refundAgent(s: Session): string {
  const [lookup] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: '42', amount: 19.99, days_since_delivery: 3 } })
  const [policy] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'check_policy', arguments: { days_since_delivery: 3 } }] })
  s.logToolResult('check_policy', { callId: policy, result: { refundable: true } })
  const [refund] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  s.logLlmCall({ model: 'gpt-4o', responseText: 'Refunded $19.99 for order 42.' })
  return 'Refunded $19.99 for order 42.'
}

describe('refund agent', () => {
  test('refunds order 42', async ({ agentSession }) => {
    const s = await agentSession((s) => refundAgent(s))
    // .reagent/golden/test/refund.test.ts/refund_agent___refunds_order_42.trace.json, written on the first run
    expect(s).toMatchGolden()
  })

  test('refunds order 42, compared when the session closes', async () => {
    // The same check without vitest's expect: a mismatch rejects session() with the diff.
    const s = await session('refund-agent', { golden: true }, (s) => refundAgent(s))
    expect(s.output).toBe('Refunded $19.99 for order 42.')
  })
})
