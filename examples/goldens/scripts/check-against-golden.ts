// scripts/check-against-golden.ts
import { AgentAssertionError, assertMatchesBaseline, session, type Session } from 'reagent-flow'
import { matchGolden } from 'reagent-flow/golden'

// Outside vitest a golden is .reagent/golden/<name>.trace.json. This script records a refund
// agent, makes its run the golden if there is none, then checks a changed run against it.
function refundAgent(s: Session, amount: number): void {
  const [search] = s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: `order 42 at ${new Date().toISOString()}` } }] })
  s.logToolResult('search', { callId: search, result: ['order 42: $19.99'] })
  const [refund] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  s.logLlmCall({ responseText: `Refunded $${amount}.` })
}

// matchGolden never throws on a mismatch: it returns the verdict, and writes the golden when
// the update mode says so ('new' here: a missing golden is written, an existing one compared).
const first = await session('refund', (s) => refundAgent(s, 19.99))
const result = matchGolden(first.trace, { update: 'new', args: { tools: { search: 'ignore' } } })
console.log(result.pass, result.written)
console.log(result.message)

// assertMatchesBaseline throws AgentAssertionError with the diff, and never writes.
const changed = await session('refund', { save: false }, (s) => refundAgent(s, 25))
changed.assertMatchesBaseline({ ignoreFields: ['response_text', 'issue_refund.amount', 'search.q'] }) // passes
try {
  assertMatchesBaseline(changed.trace, { mode: 'superset', args: { tools: { search: 'ignore' } } })
} catch (failure) {
  if (!(failure instanceof AgentAssertionError)) throw failure
  console.log(failure.message)
}
