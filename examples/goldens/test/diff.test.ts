// test/diff.test.ts
import { expect, test } from 'vitest'
import { session, type Session } from 'reagent-flow'
import { diffTraces, formatDiff } from 'reagent-flow/diff'

// Two versions of a refund agent, logged by hand: the second searches the knowledge base first
// and refunds a different amount.
function refundAgent(s: Session, version: 1 | 2): void {
  const amount = version === 1 ? 19.99 : 25
  const [lookup] = s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42', request_id: `req-${version}` } }] })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: '42', amount: 19.99 } })
  if (version === 2) {
    const [search] = s.logLlmCall({ toolCalls: [{ name: 'search_kb', arguments: { q: 'refund policy' } }] })
    s.logToolResult('search_kb', { callId: search, result: ['Refunds within 30 days.'] })
  }
  const [policy] = s.logLlmCall({ toolCalls: [{ name: 'check_policy', arguments: { order_id: '42' } }] })
  s.logToolResult('check_policy', { callId: policy, result: { refundable: true } })
  const [refund] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount } }] })
  s.logToolResult('issue_refund', { callId: refund, result: { refund_id: 'r_42' } })
  s.logLlmCall({ responseText: `Refunded $${amount.toFixed(2)}.` })
}

test('a diff aligns the turns, so one inserted turn is one difference', async () => {
  const before = await session('refund-agent', { save: false }, (s) => refundAgent(s, 1))
  const after = await session('refund-agent', { save: false }, (s) => refundAgent(s, 2))

  const diff = diffTraces(before.trace, after.trace, { ignore: ['lookup_order.request_id'] })
  expect(diff.equal).toBe(false)
  expect(diff.changes[1]).toEqual({
    kind: 'changed',
    subject: 'arguments',
    tool: 'issue_refund',
    turn: { expected: 2, actual: 3 },
    call: { expected: 0, actual: 0 },
    path: 'turns[3].llm_call.tool_calls[0].arguments.amount',
    expected: 19.99,
    actual: 25,
  })
  expect(formatDiff(diff, { color: false })).toBe(
    [
      '3 differences (strict) · - expected: 4 turns · + actual: 5 turns',
      '',
      '+ Turn 1 (actual)',
      '+   search_kb({"q":"refund policy"})',
      'Turn 2 (expected) ↔ Turn 3 (actual)',
      '  ~ issue_refund',
      '      amount: 19.99 → 25',
      'Turn 3 (expected) ↔ Turn 4 (actual)',
      '  ~ response_text: "Refunded $19.99." → "Refunded $25.00."',
    ].join('\n'),
  )
})

test('rules per tool say which arguments count', async () => {
  const before = await session('refund-agent', { save: false }, (s) => refundAgent(s, 1))
  const after = await session('refund-agent', { save: false }, (s) => refundAgent(s, 2))

  const diff = diffTraces(before.trace, after.trace, {
    mode: 'superset', // every expected call was made; the extra search_kb call is fine
    ignore: ['response_text'],
    args: {
      default: 'exact',
      tools: {
        lookup_order: ['order_id'], // only order_id is compared
        issue_refund: (actual, expected) => Number(actual['amount']) <= Number(expected['amount']) + 10,
      },
    },
  })
  expect(diff.equal).toBe(true)
})
