// src/support-agents.ts
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai'
import { z } from 'zod'
import { session } from 'reagent-flow'
import { instrumentTools } from 'reagent-flow/ai-sdk'

/**
 * The models the agents use, recorded with reagentMiddleware(). A real app passes
 * wrapLanguageModel({ model: openai('gpt-4o'), middleware: reagentMiddleware() }); a test, scripted ones.
 */
export interface AgentModels {
  support: LanguageModel
  billing: LanguageModel
}

// The sub-agent: its own model, tools and session, opened inside the caller's session.
async function billingAgent(model: LanguageModel, orderId: string): Promise<string> {
  const billing = await session('billing-agent', { handoffContext: { order_id: orderId, reason: 'damaged' } }, async () => {
    const { text } = await generateText({
      model,
      tools: instrumentTools({
        issue_refund: tool({
          inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
          execute: async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`,
        }),
      }),
      prompt: `Refund order ${orderId}`,
      stopWhen: stepCountIs(3),
    })
    return text
  })
  return billing.output ?? 'Billing could not help.'
}

// The agent that calls it, as a tool.
export async function supportAgent(models: AgentModels, message: string): Promise<string> {
  const { text } = await generateText({
    model: models.support,
    tools: instrumentTools({
      ask_billing: tool({
        description: 'Hand an order over to the billing agent',
        inputSchema: z.object({ order_id: z.string() }),
        execute: async ({ order_id }) => billingAgent(models.billing, order_id),
      }),
    }),
    prompt: message,
    stopWhen: stepCountIs(5),
  })
  return text
}
