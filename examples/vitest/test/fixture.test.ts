// test/fixture.test.ts
import { describe, expect } from 'vitest'
import type { Session } from 'reagent-flow'
import { test } from 'reagent-flow/vitest'

// Two agents, logged by hand: support searches and hands over, billing refunds.
function supportAgent(s: Session, request: string): string {
  const [search] = s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: request, at: Date.now() } }] })
  s.logToolResult('search', { callId: search, result: ['order 42: $19.99'] })
  s.logLlmCall({ responseText: 'order 42' })
  return 'order 42'
}
function billingAgent(s: Session, orderId: string): string {
  const [refund] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: orderId } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  s.logLlmCall({ responseText: `Refunded ${orderId} at ${new Date().toISOString()}.` })
  return 'Refunded.'
}

describe('refund agent', () => {
  test.override({ reagentOptions: { traceDir: 'test/.traces', metadata: { suite: 'refunds' } } })

  test('refunds order 42', async ({ agentSession }) => {
    const support = await agentSession((s) => supportAgent(s, 'Refund order 42'))
    const billing = await agentSession({ name: 'billing' }, (s) => billingAgent(s, support.output!))
    expect(support.name).toBe('refund agent > refunds order 42')
    expect(billing.name).toBe('refund agent > refunds order 42 > billing')
    expect(billing.trace.metadata).toMatchObject({ suite: 'refunds' })

    // Each golden is compared on what stays the same from run to run.
    expect(support).toMatchGolden({ args: { tools: { search: 'ignore' } } })
    expect(billing).toMatchGolden({ ignore: ['response_text'] })
  })
})
