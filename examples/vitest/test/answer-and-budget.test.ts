// test/answer-and-budget.test.ts
import { expect } from 'vitest'
import { test } from 'reagent-flow/vitest'

test('answers within budget', async ({ agentSession }) => {
  const s = await agentSession({ save: false }, (s) => {
    s.logLlmCall({ responseText: 'Refunded $19.99 for order 42.', model: 'gpt-4o-mini', tokenUsage: { input_tokens: 900, output_tokens: 30 } })
  })
  expect(s).toHaveFinalAnswer(/refunded \$19\.99/i)
  expect(s).not.toHaveFinalAnswer(expect.stringContaining('sorry'))
  expect(s).toStayWithinTokens(4_000)
  expect(s).toCostLessThan(0.01)
  expect(s).toCostLessThan(0.01, { prices: { 'gpt-4o-mini': { input: 0.3, output: 1.2 } } })
})
