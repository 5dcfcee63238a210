// test/refund-tools.test.ts
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { assertToolContract } from 'reagent-flow'
import { instrumentTools, reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'
import { expect } from 'vitest'
import { z } from 'zod'

const tools = instrumentTools({
  lookup_order: tool({
    description: 'Look up an order by its id.',
    inputSchema: z.object({ order_id: z.string().describe('The order id, digits only.') }),
    execute: async ({ order_id }) => ({ order_id, amount: 19.99 }),
  }),
  issue_refund: tool({
    description: 'Refund an order, in full or in part.',
    inputSchema: z.object({ order_id: z.string(), amount: z.number().positive(), reason: z.enum(['damaged', 'late', 'other']).optional() }),
    execute: async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`,
  }),
})

async function refundAgent(question: string): Promise<string> {
  const model = scriptedLanguageModel([
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
    { text: 'Refunded $19.99 on order 42.' },
  ])
  const { text } = await generateText({
    model: wrapLanguageModel({ model, middleware: reagentMiddleware() }),
    tools,
    prompt: question,
    stopWhen: stepCountIs(5),
  })
  return text
}

test('refunds order 42 with the tools its contract lists', async ({ agentSession }) => {
  const s = await agentSession(() => refundAgent('Refund order 42, please.'))

  // .reagent/contracts/test/refund-tools.test.ts/refunds_order_42_with_the_tools_its_contract_lists.tools.json
  expect(s).toMatchToolContract()
})

test('offers what the contract lists, new tools and parameters allowed', async ({ agentSession }) => {
  const s = await agentSession(() => refundAgent('Refund order 42, please.'))

  // The same check as a function, for a test that does not use expect (or outside vitest).
  assertToolContract(s, { allow: ['compatible'] })
})
