/**
 * What the LangChain adapter tests run: real `@langchain/core` tools and fake
 * chat models (from `@langchain/core/utils/testing`) scripted turn by turn, and
 * an agent loop written with core runnables.
 */
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage, type ToolCall } from '@langchain/core/messages'
import { RunnableLambda, type Runnable } from '@langchain/core/runnables'
import { tool, type StructuredToolInterface } from '@langchain/core/tools'
import { FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { z } from 'zod'

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export const lookupOrder = tool(
  async ({ order_id }) => {
    await sleep(2)
    return { order_id, amount: 19.99, status: 'delivered' }
  },
  { name: 'lookup_order', description: 'Look an order up by id.', schema: z.object({ order_id: z.string() }) },
)

export const issueRefund = tool(async ({ order_id, amount }) => `Refunded ${amount} on order ${order_id}.`, {
  name: 'issue_refund',
  description: 'Refund an order.',
  schema: z.object({ order_id: z.string(), amount: z.number() }),
})

export const chargeCard = tool(
  async () => {
    throw new Error('card declined')
  },
  { name: 'charge_card', description: 'Charge the card on file.', schema: z.object({ cents: z.number() }) },
)

export const TOOLS: readonly StructuredToolInterface[] = [lookupOrder, issueRefund, chargeCard]

export type ScriptedTurn = string | { text?: string; toolCalls: ToolCall[] }

export function call(name: string, args: Record<string, unknown>, id: string): ToolCall {
  return { name, args, id, type: 'tool_call' }
}

/** A fake chat model (tools bound) that answers with one scripted turn, by `.invoke()` or `.stream()` alike. */
export function fakeModelFor(turn: ScriptedTurn, sleepMs = 0): Runnable<BaseMessage[], AIMessageChunk> {
  const text = typeof turn === 'string' ? turn : (turn.text ?? '')
  const toolCalls = typeof turn === 'string' ? [] : turn.toolCalls
  return new FakeStreamingChatModel({
    sleep: sleepMs,
    responses: [new AIMessage(text)],
    chunks: [new AIMessageChunk({ content: text, tool_calls: toolCalls })],
  }).bindTools([...TOOLS]) as Runnable<BaseMessage[], AIMessageChunk>
}

/** A chat model whose n-th call answers with `script[n]`: one fake model per turn, behind a runnable. */
export function scriptedModel(script: readonly ScriptedTurn[], sleepMs = 0): Runnable<BaseMessage[], AIMessageChunk> {
  let turn = 0
  return RunnableLambda.from(async (messages: BaseMessage[]) => {
    const next = script[turn++]
    if (next === undefined) throw new Error(`scripted model: no turn #${turn} (script has ${script.length})`)
    if (sleepMs > 0) await sleep(sleepMs)
    return fakeModelFor(next).invoke(messages)
  })
}

/**
 * The classic agent loop, as a runnable: model -> tool calls -> ToolMessages ->
 * model, until the model answers without tool calls. Tool errors go back to
 * the model as error ToolMessages, as LangGraph's ToolNode does.
 */
export function agentLoop(model: Runnable<BaseMessage[], AIMessageChunk>): Runnable<string, string> {
  const byName = new Map(TOOLS.map((t) => [t.name, t]))
  return RunnableLambda.from(async (question: string) => {
    const messages: BaseMessage[] = [new HumanMessage(question)]
    for (let step = 0; step < 6; step++) {
      const answer = await model.invoke(messages)
      messages.push(answer)
      if (!answer.tool_calls?.length) return answer.text
      for (const toolCall of answer.tool_calls) {
        const target = byName.get(toolCall.name)!
        messages.push(await target.invoke(toolCall).catch((error: Error) => toolErrorMessage(toolCall, error)))
      }
    }
    throw new Error('agent loop: too many steps')
  })
}

function toolErrorMessage(toolCall: ToolCall, error: Error): BaseMessage {
  return new ToolMessage({ content: `Error: ${error.message}`, tool_call_id: toolCall.id!, name: toolCall.name, status: 'error' })
}
