// test/refund-agent.langchain.test.ts
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { expect } from 'vitest'
import { z } from 'zod'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentLangChain } from 'reagent-flow/langchain'
import { test } from 'reagent-flow/vitest'

instrumentLangChain() // once: at the top of the test file, or in a vitest setup file

const lookupOrder = tool(async ({ order_id }) => ({ order_id, amount: 19.99, status: 'delivered' }), {
  name: 'lookup_order',
  description: 'Look an order up by id.',
  schema: z.object({ order_id: z.string() }),
})
const issueRefund = tool(async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`, {
  name: 'issue_refund',
  description: 'Refund an order.',
  schema: z.object({ order_id: z.string(), amount: z.number() }),
})

test('the agent looks the order up, then refunds it', async ({ agentSession }) => {
  // In your app: new ChatOpenAI({ model: 'gpt-4o-mini' }). Here its requests are answered by a scripted model.
  const llm = new ChatOpenAI({
    model: 'gpt-4o-mini',
    apiKey: 'sk-test',
    configuration: {
      fetch: scriptedFetch([
        { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
        { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
        { text: 'Order 42 is refunded: $19.99 is on its way back to your card.' },
      ]),
    },
  })
  const agent = createReactAgent({ llm, tools: [lookupOrder, issueRefund] })

  const s = await agentSession(() => agent.invoke({ messages: [{ role: 'user', content: 'Refund order 42, please.' }] }))

  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s).toHaveFinalAnswer('Order 42 is refunded: $19.99 is on its way back to your card.')
  expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ order_id: '42', amount: 19.99, status: 'delivered' })
  expect(s.trace.turns[0]!.llm_call).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', stop_reason: 'tool_calls' })
})
