/**
 * A two-agent support system on the real @openai/agents, for the adapter's
 * tests: a triage agent with an input guardrail hands off (with structured
 * handoff input) to a billing agent that has a function tool. Models are the
 * SDK's own, pointed at the canned local server.
 */
import { Agent, handoff, run, OpenAIChatCompletionsModel, tool, type InputGuardrail, type Model, type OutputGuardrail } from '@openai/agents'
import OpenAI from 'openai'
import { z } from 'zod'
import { fixtureJson, fixtureText, type CannedResponse, type CannedServer } from '../../helpers/canned-server.js'

export function openaiClient(server: CannedServer): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 })
}

export function chatModel(server: CannedServer): OpenAIChatCompletionsModel {
  return new OpenAIChatCompletionsModel(openaiClient(server), 'gpt-4o-mini')
}

/** The run's three completions, whole or streamed. */
export function triageReplies(streamed = false): CannedResponse[] {
  return ['triage-handoff', 'billing-lookup', 'billing-answer'].map((name) =>
    streamed ? { sse: fixtureText(`openai-agents/${name}.sse`) } : { json: fixtureJson(`openai-agents/${name}.json`) },
  )
}

export const invoices: Record<string, { amount: number; charges: number }> = { '42': { amount: 19.99, charges: 2 } }

export const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'The invoice of an order.',
  parameters: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => {
    const invoice = invoices[order_id]
    if (invoice === undefined) throw new Error(`no invoice for order ${order_id}`)
    return invoice
  },
})

/** Runs before the model is called (not in parallel with it), so a tripped run never reaches the model. */
export const noCardNumbers: InputGuardrail = {
  name: 'no_card_numbers',
  runInParallel: false,
  execute: ({ input }) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input)
    return Promise.resolve({ tripwireTriggered: /\b\d{16}\b/.test(text), outputInfo: { checked: text.length } })
  },
}

export const politeAnswer: OutputGuardrail = {
  name: 'polite_answer',
  execute: ({ agentOutput }) => Promise.resolve({ tripwireTriggered: String(agentOutput).includes('stupid'), outputInfo: null }),
}

export const HandoffInput = z.object({ order_id: z.string(), reason: z.string() })

export function triageAgents(model: Model): { triage: Agent; billing: Agent } {
  const billing = new Agent({
    name: 'Billing agent',
    instructions: 'You fix billing problems. Look up the invoice first.',
    model,
    tools: [lookupInvoice],
    outputGuardrails: [politeAnswer],
  })
  const triage = new Agent({
    name: 'Triage agent',
    instructions: 'Hand billing questions to the billing agent.',
    model,
    inputGuardrails: [noCardNumbers],
    handoffs: [handoff(billing, { inputType: HandoffInput, onHandoff: () => undefined })],
  })
  return { triage, billing }
}

/** Runs `agent` and resolves to its final output; streamed, the run's events are read to the end first, as an app would. */
export async function runAgent(
  agent: Agent,
  input: string,
  { stream = false, runner = { run } }: { stream?: boolean; runner?: { run: typeof run } } = {},
): Promise<unknown> {
  if (!stream) return (await runner.run(agent, input)).finalOutput
  const result = await runner.run(agent, input, { stream: true })
  for await (const _event of result) void _event
  await result.completed
  return result.finalOutput
}
