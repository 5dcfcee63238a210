// test/refund-agent.ai-sdk.test.ts
import { generateText, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { expect } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'

const tools = instrumentTools({
  lookup_order: tool({ inputSchema: z.object({ order_id: z.string() }), execute: async ({ order_id }) => ({ order_id, amount: 19.99 }) }),
  issue_refund: tool({
    inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
    execute: async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`,
  }),
})

// The agent under test takes its model, so a test can hand it a scripted one.
async function refundAgent(model: LanguageModel, question: string): Promise<string> {
  const { text } = await generateText({ model, tools, prompt: question, stopWhen: stepCountIs(5) })
  return text
}

test('looks the order up, then refunds it', async ({ agentSession }) => {
  const model = scriptedLanguageModel([
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
    (request) => ({ text: `Done. ${request.messages.at(-1)!.content}` }), // answers with the refund tool's result
  ])

  const s = await agentSession(() => refundAgent(wrapLanguageModel({ model, middleware: reagentMiddleware() }), 'Refund order 42, please.'))

  expect(s.output).toBe('Done. Refunded $19.99 on order 42.')
  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s).toHaveCalledToolWith('lookup_order', { order_id: '42' })
})
