// test/scripted-user.test.ts
import { expect, test } from 'vitest'
import { conversation, simulatedUser } from 'reagent-flow/simulate'

// A rule-based agent stands in for yours here.
const agent = (message: string): string => (/\d+/.test(message) ? 'Refunded order 42.' : 'Which order?')

test('a scripted user: a function of the conversation so far', async () => {
  const user = simulatedUser({
    model: (transcript) => (transcript.length === 0 ? 'I want a refund.' : transcript.at(-1)!.content.startsWith('Refunded') ? { done: true, reason: 'refunded', goalMet: true } : 'Order 42.'),
  })
  const conv = await conversation('scripted-refund', { user, maxTurns: 4 }, agent)
  expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: true, exchanges: 2 })
})

test('a scripted user: the messages, in order', async () => {
  const conv = await conversation('listed-refund', { user: simulatedUser({ model: ['I want a refund.', 'Order 42.'] }) }, agent)
  expect(conv.output.transcript.at(-1)).toEqual({ role: 'assistant', content: 'Refunded order 42.', exchange: 2 })
})
