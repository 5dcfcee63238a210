// test/simulated-tools.langchain.test.ts
import { HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { expect } from 'vitest'
import { scriptedChatModel } from 'reagent-flow/fake/langchain'
import { instrumentLangChain } from 'reagent-flow/langchain'
import { simulatedTool } from 'reagent-flow/simulate'
import { test } from 'reagent-flow/vitest'

instrumentLangChain()

const lookupOrder = simulatedTool('lookup_order', {
  description: 'Looks an order up by id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  answer: ({ order_id }: { order_id: string }) => ({ order_id, status: 'delivered', amount: 19.99 }),
})

// LangChain hands the tool its config (which holds the call's id): pass it on.
const tools = [
  tool((input: { order_id: string }, config) => lookupOrder(input, config), {
    name: lookupOrder.name,
    description: lookupOrder.description,
    schema: lookupOrder.parameters,
  }),
]

test('a LangChain agent calls the simulated tool', async ({ agentSession }) => {
  const llm = scriptedChatModel([{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }, { text: 'Order 42 was delivered.' }])
  const agent = createReactAgent({ llm, tools })

  const s = await agentSession(async () => (await agent.invoke({ messages: [new HumanMessage('Where is order 42?')] })).messages.at(-1)!.text)

  expect(s.output).toBe('Order 42 was delivered.')
  expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ order_id: '42', status: 'delivered', amount: 19.99 })
})
