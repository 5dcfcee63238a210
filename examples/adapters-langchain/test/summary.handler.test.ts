// test/summary.handler.test.ts
import { ChatPromptTemplate } from '@langchain/core/prompts'
import { expect } from 'vitest'
import { scriptedChatModel } from 'reagent-flow/fake/langchain'
import { ReagentCallbackHandler } from 'reagent-flow/langchain'
import { test } from 'reagent-flow/vitest'

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'Summarise the ticket in one line.'],
  ['user', '{ticket}'],
])

test('a chain given the handler is recorded, with no global hook', async ({ agentSession }) => {
  const chain = prompt.pipe(scriptedChatModel([{ text: 'Charged twice for order 42.' }])) // in your app: a real chat model

  const s = await agentSession(() => chain.invoke({ ticket: 'I was charged two times for my order 42!' }, { callbacks: [new ReagentCallbackHandler()] }))

  expect(s).toHaveFinalAnswer('Charged twice for order 42.')
  expect(s.trace.turns[0]!.llm_call.messages).toEqual([
    { role: 'system', content: 'Summarise the ticket in one line.' },
    { role: 'user', content: 'I was charged two times for my order 42!' },
  ])
})
