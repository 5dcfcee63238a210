// test/goal.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

// In your suite: instrumentOpenAI(new OpenAI()). Here a scripted model answers as a judge would.
const judgeModel = instrumentOpenAI(
  new OpenAI({ apiKey: 'sk-test', fetch: scriptedFetch([{ text: '{"reached": true, "reason": "refund r_42 was issued and the answer says when"}' }]) }),
)

test('refunds order 42', async ({ agentSession }) => {
  const goal = 'Refund order 42 and tell the customer when the money arrives'
  const s = await agentSession({ metadata: { goal } }, (s) => {
    const [callId] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' } }] })
    s.logToolResult('issue_refund', { callId, result: { refund_id: 'r_42' } })
    s.logLlmCall({ responseText: 'Refunded order 42; the money arrives in 3-5 days.' })
  })

  // A rule
  await expect(s).toReachGoal(({ answer }) => /refunded/i.test(answer ?? ''))

  // A model: its call is recorded in the judge's own run, "<test name> > judge"
  await expect(s).toReachGoal(async ({ goal, transcript }) => {
    const completion = await judgeModel.chat.completions.create({
      model: 'gpt-4o-mini',
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: 'Judge whether the agent reached the goal. Answer {"reached": boolean, "reason": string}.' },
        { role: 'user', content: `Goal: ${goal}\n\nWhat the agent did:\n${transcript}` },
      ],
    })
    return JSON.parse(completion.choices[0]!.message.content ?? '{}') as { reached: boolean; reason: string }
  })
  expect(s.trace.grade).toMatchObject({ grade: 'pass', source: 'goal judge', reason: 'refund r_42 was issued and the answer says when' })
})
