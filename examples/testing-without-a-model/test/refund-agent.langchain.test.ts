// test/refund-agent.langchain.test.ts
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { expect } from 'vitest'
import { z } from 'zod'
import { scriptedChatModel } from 'reagent-flow/fake/langchain'
import { instrumentLangChain } from 'reagent-flow/langchain'
import { test } from 'reagent-flow/vitest'

instrumentLangChain()

const lookupOrder = tool(async ({ order_id }) => ({ order_id, amount: 19.99 }), {
  name: 'lookup_order',
  description: 'Look an order up by id.',
  schema: z.object({ order_id: z.string() }),
})
const issueRefund = tool(async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`, {
  name: 'issue_refund',
  description: 'Refund an order.',
  schema: z.object({ order_id: z.string(), amount: z.number() }),
})

test('a ReAct agent looks the order up, then refunds it', async ({ agentSession }) => {
  const llm = scriptedChatModel([
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
    { text: 'Order 42 is refunded.' },
  ])
  const agent = createReactAgent({ llm, tools: [lookupOrder, issueRefund] })

  const s = await agentSession(async () => {
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'Refund order 42, please.' }] })
    return messages.at(-1)!.text
  })

  expect(s.output).toBe('Order 42 is refunded.')
  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(llm.requests[0]!.tools.map((t) => t.name)).toEqual(['lookup_order', 'issue_refund'])
})
