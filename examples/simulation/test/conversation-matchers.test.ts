// test/conversation-matchers.test.ts
import { expect, test } from 'vitest'
import type { Session } from 'reagent-flow'
import { conversation, simulatedUser } from 'reagent-flow/simulate'

// A support agent, logged by hand to keep the example short (an adapter records the same turns).
function supportAgent(message: string, s: Session): string {
  const order = /\d+/.exec(message)?.[0]
  if (order === undefined) {
    s.logLlmCall({ responseText: 'Which order is it about?' })
    return 'Which order is it about?'
  }
  const [lookup] = s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: order } }] })
  s.logToolResult('lookup_order', { callId: lookup!, result: { order_id: order, amount: 19.99 } })
  const [refund] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: order, amount: 19.99 } }] })
  s.logToolResult('issue_refund', { callId: refund!, result: { refund_id: `r_${order}` } })
  s.logLlmCall({ responseText: `Refunded $19.99 for order ${order}.` })
  return `Refunded $19.99 for order ${order}.`
}

test('refunds order 42 within three exchanges, and only once it knows the order', async () => {
  const user = simulatedUser({
    goal: 'Get a refund for order 42',
    model: (transcript) =>
      transcript.length === 0
        ? 'I want my money back.'
        : transcript.at(-1)!.content.startsWith('Refunded')
          ? { done: true, reason: 'order 42 was refunded', goalMet: true }
          : "It's order 42.",
  })
  const conv = await conversation('support', { user, maxTurns: 6 }, (message, _transcript, { session }) => supportAgent(message, session))

  expect(conv).toEndWithGoalMet()
  expect(conv).toEndWithinExchanges(3)
  expect(conv).toSatisfyEveryReply(/[.?]$/)
  expect(conv).toSatisfyEveryReply(function noCardNumbers(reply) {
    expect(reply).not.toMatch(/\b\d{16}\b/)
  })
  expect(conv).not.toHaveCalledToolBeforeExchange('issue_refund', 2)
  expect(conv).toHaveCalledToolBeforeExchange('lookup_order', 3)
})
