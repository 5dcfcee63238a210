// test/checkout.faults.test.ts
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { expect } from 'vitest'
import { z } from 'zod'
import { traceTool } from 'reagent-flow'
import { instrumentTools, reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel, type Script, type ScriptRequest } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'

const charged: string[] = []
const chargeCard = traceTool('charge_card', async ({ order_id }: { order_id: string }) => {
  charged.push(order_id)
  return `Charged order ${order_id}.`
})
const tools = instrumentTools({ charge_card: tool({ inputSchema: z.object({ order_id: z.string() }), execute: chargeCard }) })

async function checkoutAgent(script: Script): Promise<string> {
  const model = wrapLanguageModel({ model: scriptedLanguageModel(script), middleware: reagentMiddleware() })
  const { text } = await generateText({ model, tools, prompt: 'Charge order 42.', stopWhen: stepCountIs(5) })
  return text
}

// The model charges the card, and answers from what the tool said: a charge, or an error.
const charge = { toolCalls: [{ name: 'charge_card', arguments: { order_id: '42' } }] }
const toolSaid = (request: ScriptRequest): string => request.messages.at(-1)!.content

test('tells the customer when the card is declined', async ({ agentSession }) => {
  const s = await agentSession({ faults: [{ tool: 'charge_card', error: 'card declined' }] }, () =>
    checkoutAgent([charge, (request) => ({ text: toolSaid(request).includes('declined') ? 'Your card was declined.' : 'Paid.' })]),
  )

  expect(s.output).toBe('Your card was declined.')
  expect(charged).toEqual([]) // the tool never ran
  expect(s.trace.turns[0]!.tool_results[0]!.error).toBe('ToolFaultError: card declined')
  expect(s.trace.turns[0]!.injected).toBe(true)
})

test('charges again after a gateway timeout', async ({ agentSession }) => {
  const s = await agentSession({ faults: [{ tool: 'charge_card', error: 'gateway timeout', times: 1 }] }, () =>
    checkoutAgent([charge, (request) => (toolSaid(request).includes('timeout') ? charge : { text: 'Paid.' }), { text: 'Paid.' }]),
  )

  expect(s.output).toBe('Paid.')
  expect(s).toMatchFlow(['charge_card', 'charge_card'])
  expect(charged).toEqual(['42'])
})
