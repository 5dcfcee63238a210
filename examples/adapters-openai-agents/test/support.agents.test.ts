// test/support.agents.test.ts
import { Agent, handoff, run, setDefaultOpenAIClient, tool } from '@openai/agents'
import OpenAI from 'openai'
import { expect } from 'vitest'
import { z } from 'zod'
import { loadChain } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAIAgents } from 'reagent-flow/openai-agents'
import { test } from 'reagent-flow/vitest'

instrumentOpenAIAgents() // once, before the runs; calling it again changes nothing

const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'The invoice of an order.',
  parameters: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => ({ order_id, amount: 19.99, charges: 2 }),
})
const billing = new Agent({ name: 'Billing agent', instructions: 'Fix billing problems.', tools: [lookupInvoice] })
const triage = new Agent({
  name: 'Triage agent',
  instructions: 'Hand billing questions to the billing agent.',
  handoffs: [handoff(billing, { inputType: z.object({ order_id: z.string(), reason: z.string() }), onHandoff: () => {} })],
})

test('triage hands a double charge to billing, which looks the invoice up', async ({ agentSession }) => {
  // In your app the SDK's default client reads OPENAI_API_KEY. Here its requests are answered by a script.
  setDefaultOpenAIClient(
    new OpenAI({
      apiKey: 'sk-test',
      fetch: scriptedFetch([
        { toolCalls: [{ name: 'transfer_to_Billing_agent', arguments: { order_id: '42', reason: 'charged twice' } }] },
        { toolCalls: [{ name: 'lookup_invoice', arguments: { order_id: '42' } }] },
        { text: 'Order 42 was charged twice; the second charge of $19.99 is refunded.' },
      ]),
    }),
  )

  const s = await agentSession(async () => (await run(triage, 'I was charged twice for order 42.')).finalOutput)

  expect(s.output).toBe('Order 42 was charged twice; the second charge of $19.99 is refunded.')
  const chain = loadChain(s)
  expect(chain.children.map((child) => child.name)).toEqual(['Billing agent'])
  const billingRun = chain.get('Billing agent')
  expect(billingRun.trace.handoff_context).toEqual({ order_id: '42', reason: 'charged twice' })
  billingRun.assertHandoffHasFields(['order_id', 'reason'])
  expect(billingRun).toHaveCalledToolWith('lookup_invoice', { order_id: '42' })
})
