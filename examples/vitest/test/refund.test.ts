// test/refund.test.ts
import { describe, expect } from 'vitest'
import type { Session } from 'reagent-flow'
import { test } from 'reagent-flow/vitest'

// A refund agent, logged by hand to keep the example short (an adapter records the same turns).
function refundAgent(s: Session, orderId: string): string {
  const [lookup] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'lookup_order', arguments: { order_id: orderId } }] })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: orderId, amount: 19.99, days_since_delivery: 3 } })
  const [policy] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'check_policy', arguments: { days_since_delivery: 3 } }] })
  s.logToolResult('check_policy', { callId: policy, result: { eligible: true } })
  const [refund] = s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'issue_refund', arguments: { order_id: orderId, amount: 19.99 } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: `r_${orderId}` } })
  s.logLlmCall({ model: 'gpt-4o', responseText: `Refunded $19.99 for order ${orderId}.` })
  return `Refunded $19.99 for order ${orderId}.`
}

describe('refund agent', () => {
  test('refunds order 42', async ({ agentSession }) => {
    const s = await agentSession((s) => refundAgent(s, '42'))
    expect(s).toHaveSucceeded()
    expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
    expect(s).toMatchGolden() // .reagent/golden/test/refund.test.ts/refund_agent___refunds_order_42.trace.json
  })

  test('checks the policy before refunding', async ({ agentSession }) => {
    const s = await agentSession((s) => refundAgent(s, '42'))
    expect(s).toHaveCalledTool('check_policy')
    expect(s).toMatchFlow(['lookup_order', 'check_policy', 'issue_refund'])
  })
})
