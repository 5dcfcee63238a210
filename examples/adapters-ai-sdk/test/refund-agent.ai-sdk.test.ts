// test/refund-agent.ai-sdk.test.ts
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { expect } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedFetch } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'

// The shop the tools talk to: your database and payment service.
const orders = new Map([['42', { order_id: '42', amount: 19.99, status: 'delivered' }]])
const refunds: { refund_id: string; order_id: string; amount: number }[] = []

const tools = instrumentTools({
  lookup_order: tool({
    description: 'Find an order by id',
    inputSchema: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => orders.get(order_id) ?? { error: `no order ${order_id}` },
  }),
  issue_refund: tool({
    description: 'Refund an order',
    inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
    execute: async ({ order_id, amount }) => {
      const refund = { refund_id: `re_${refunds.length + 1}`, order_id, amount }
      refunds.push(refund)
      return refund
    },
  }),
})

async function refundAgent(model: LanguageModel, request: string): Promise<string> {
  const { text } = await generateText({ model, tools, system: 'You are a refund agent.', prompt: request, stopWhen: stepCountIs(5) })
  return text
}

test('looks the order up, then refunds what it cost', async ({ agentSession }) => {
  // In your app: openai('gpt-4o') from '@ai-sdk/openai'. Here the same provider, its requests answered by a script.
  const openai = createOpenAI({
    apiKey: 'sk-test',
    fetch: scriptedFetch([
      { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
      { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
      { text: 'Done: order 42 is refunded ($19.99).' },
    ]),
  })
  const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: reagentMiddleware() })

  const s = await agentSession(() => refundAgent(model, 'Refund order 42, it arrived broken.'))

  expect(s.output).toBe('Done: order 42 is refunded ($19.99).')
  s.assertCalledBefore('lookup_order', 'issue_refund')
  s.assertToolSucceeded('issue_refund')
  s.assertMaxTurns(5)
  s.assertTotalTokensUnder(2_000)
  expect(s.trace.turns[1]!.llm_call.tool_calls[0]!.arguments).toEqual({ order_id: '42', amount: 19.99 })
  expect(refunds).toEqual([{ refund_id: 're_1', order_id: '42', amount: 19.99 }])
})
