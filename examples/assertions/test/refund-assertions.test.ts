// test/refund-assertions.test.ts
import { expect, test } from 'vitest'
import { AgentAssertionError, assertCalled, assertOn, loadTrace, session, type Session } from 'reagent-flow'

// A refund agent, logged by hand to keep the example short (an adapter records the same turns).
function refundAgent(s: Session, policyServiceUp: boolean): string {
  const usage = { input_tokens: 350, output_tokens: 20 }
  const [lookup] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage, toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: '42', amount: 19.99, days_since_delivery: 3 } })
  const [policy] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage, toolCalls: [{ name: 'check_policy', arguments: { days_since_delivery: 3 } }] })
  if (!policyServiceUp) {
    s.logToolResult('check_policy', { callId: policy, error: 'PolicyServiceUnavailable: 503' })
    s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage, responseText: "I'm sorry, I can't process your refund right now." })
    return "I'm sorry, I can't process your refund right now."
  }
  s.logToolResult('check_policy', { callId: policy, result: { refundable: true } })
  const [refund] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage, toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage, responseText: 'Refunded $19.99 for order 42.' })
  return 'Refunded $19.99 for order 42.'
}

test('refunds order 42 after checking the policy', async () => {
  const s = await session('refund-agent', (s) => refundAgent(s, true))

  // As methods of the closed session
  s.assertFlow(['lookup_order', '...', 'issue_refund'])
  s.assertCalledBefore('check_policy', 'issue_refund')
  s.assertCalledWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
  s.assertToolSucceeded('issue_refund')
  s.assertTotalTokensUnder(4_000)
  s.assertCostUnder({ usd: 0.05 })

  // As functions of a trace, and on a loaded file (one the Python reagent-flow wrote, too)
  assertCalled(s.trace, 'issue_refund')
  assertOn(loadTrace(s.path!)).assertMaxTurns(5)
})

test('a failed assertion says what the agent did instead', async () => {
  const s = await session('refund-agent', (s) => refundAgent(s, false))

  expect(() => s.assertCalled('issue_refund')).toThrow(AgentAssertionError)
  expect(() => s.assertCalled('issue_refund')).toThrow(
    'PROBABLE CAUSE: check_policy({"days_since_delivery":3}) failed in turn 1: PolicyServiceUnavailable: 503',
  )
})
