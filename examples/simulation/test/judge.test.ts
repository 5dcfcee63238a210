// test/judge.test.ts
import { expect } from 'vitest'
import { judge } from 'reagent-flow/simulate'
import { test } from 'reagent-flow/vitest'

// A rule-based judge. In your suite, a model: judge({ rubric, model: { client: new OpenAI(), model: 'gpt-4o-mini' } })
const confirmsRefund = judge({
  rubric: 'The agent tells the customer the refund went through',
  model: ({ answer }) => ({ pass: /refunded/i.test(answer ?? ''), reason: `it answered ${JSON.stringify(answer)}` }),
})

test('confirms the refund', async ({ agentSession }) => {
  const s = await agentSession({ metadata: { goal: 'Refund order 42' } }, (s) => {
    s.logLlmCall({ responseText: 'Refunded order 42.', model: 'gpt-4o-mini', tokenUsage: { input_tokens: 1200, output_tokens: 40 } })
  })

  // Graded in its own run, "<test name> > judge"; the verdict is also the run's grade.
  expect(await confirmsRefund(s)).toEqual({ pass: true, score: 1, reason: 'it answered "Refunded order 42."' })
  // The goal becomes the rubric (the judge's own rubric is added to it).
  await expect(s).toReachGoal(confirmsRefund)

  // Who paid for what: the judges' calls are the judge's, never the agent's.
  expect(s.spend().agent).toEqual({ inputTokens: 1200, outputTokens: 40, tokens: 1240, usd: 0.000204, unpricedModels: [] })
  expect(s).toCostLessThan(0.001)
})
