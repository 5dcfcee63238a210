// scripts/record-runs.ts
import { session, type Session } from 'reagent-flow'

// Four runs logged by hand, so the commands below have something to show; an adapter records
// the same turns from a real model. `--skip-policy` records refund-agent as after a prompt change.
const skipPolicy = process.argv.includes('--skip-policy')
const usage = (input_tokens: number, output_tokens: number) => ({ input_tokens, output_tokens })

function refundAgent(s: Session): string {
  const [lookup] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(220, 20), toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: '42', amount: 19.99, days_since_delivery: 3 } })
  if (!skipPolicy) {
    const [policy] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(230, 15), toolCalls: [{ name: 'check_policy', arguments: { days_since_delivery: 3 } }] })
    s.logToolResult('check_policy', { callId: policy, result: { refundable: true } })
  }
  const [refund] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(230, 20), toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  const answer = skipPolicy ? 'Refunded $19.99 for order 42.' : 'Refunded $19.99 for order 42. The money is back in 3-5 days.'
  s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(240, 15), responseText: answer })
  return answer
}

await session('refund-agent', { metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 30 } }, refundAgent)

// A support agent that hands a double charge to a billing agent: the billing session is its child.
await session('support-agent', async (s) => {
  const [call] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(600, 20), toolCalls: [{ name: 'delegate', arguments: { to: 'billing-agent' } }] })
  const handoffContext = { customer_id: 'c_7', invoice: 'inv_2026_118', reason: 'charged twice' }
  const billing = await session('billing-agent', { handoffContext }, (b) => {
    const [refund] = b.logLlmCall({ model: 'gpt-4o-mini', tokenUsage: usage(420, 20), toolCalls: [{ name: 'refund_charge', arguments: { invoice: 'inv_2026_118' } }] })
    b.logToolResult('refund_charge', { callId: refund, result: { refunded_eur: 49 } })
    b.logLlmCall({ model: 'gpt-4o-mini', tokenUsage: usage(450, 10), responseText: 'Refunded the duplicate charge of 49 EUR.' })
    return 'Refunded the duplicate charge of 49 EUR.'
  })
  s.logToolResult('delegate', { callId: call, result: billing.output })
  s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(720, 20), responseText: 'You were charged twice; we refunded 49 EUR.' })
})

// A run whose search tool timed out and whose agent gave up: the session rejects, its trace is written as failed.
await session('search-agent', (s) => {
  const [call] = s.logLlmCall({ model: 'gpt-4o', tokenUsage: usage(300, 12), toolCalls: [{ name: 'search', arguments: { q: 'refund policy' } }] })
  s.logToolResult('search', { callId: call, error: 'TimeoutError: search took longer than 10 s' })
  throw new Error('search failed')
}).catch(() => undefined)
