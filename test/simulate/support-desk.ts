/**
 * A support desk for conversation tests: a refund agent on the real OpenAI
 * SDK, and a canned chat-completions server that plays both its model and
 * the simulated user's (told apart by the system prompt, answered by what
 * the request says, not by its order, so runs side by side never mix).
 */
import OpenAI from 'openai'
import { traceTool, type Session } from '../../src/entries/index.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { chatHistory, type Transcript } from '../../src/entries/simulate.js'
import type { CannedResponse, CannedServer, Handler, ReceivedRequest } from '../helpers/canned-server.js'

export const AGENT_PROMPT = 'You are the support agent of Acme. Look orders up before you refund them.'

interface Answer {
  text?: string
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>
}

/** A chat completion as OpenAI sends it, with usage. */
export function completion({ text, toolCalls }: Answer, tokens: { input: number; output: number } = { input: 60, output: 12 }): CannedResponse {
  return {
    json: {
      id: 'chatcmpl-desk',
      object: 'chat.completion',
      created: 1_765_000_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text ?? null,
            refusal: null,
            ...(toolCalls === undefined
              ? {}
              : {
                  tool_calls: toolCalls.map(({ id, name, arguments: args }) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
                }),
          },
          logprobs: null,
          finish_reason: toolCalls === undefined ? 'stop' : 'tool_calls',
        },
      ],
      usage: { prompt_tokens: tokens.input, completion_tokens: tokens.output, total_tokens: tokens.input + tokens.output },
    },
  }
}

type Message = { role: string; content?: unknown; tool_call_id?: string }

function messagesOf(request: ReceivedRequest): Message[] {
  return ((request.body as { messages?: Message[] }).messages ?? []) as Message[]
}

/** What the simulated user says, by how far the conversation has got (its own view: its messages are `assistant`). */
export type UserLines = (turnsSoFar: number, lastAgentReply: string | undefined) => Answer

/** The default user: asks for a refund, gives the order number when asked, ends when refunded. */
export const refundUser: UserLines = (said, last) => {
  if (said === 0) return { text: "Hi, I'd like a refund for my order." }
  if (last?.includes('Refunded') === true)
    return { toolCalls: [{ id: 'call_end', name: 'end_conversation', arguments: { goal_met: true, reason: 'The agent refunded order 42.' } }] }
  return { text: "It's order 42." }
}

/** The agent's model: asks for the order, then looks it up, refunds it and says so. */
function agentAnswer(messages: Message[]): Answer {
  const last = messages.at(-1)
  if (last?.role === 'tool') {
    return last.tool_call_id === 'call_lookup'
      ? { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] }
      : { text: 'Refunded $19.99 for order 42.' }
  }
  if (typeof last?.content === 'string' && last.content.includes('42'))
    return { toolCalls: [{ id: 'call_lookup', name: 'lookup_order', arguments: { order_id: '42' } }] }
  return { text: 'I can help with that. What is your order number?' }
}

/** The canned server's handler: the user's model when the system prompt is a simulated user's, else the agent's. */
export function supportDesk(userLines: UserLines = refundUser): Handler {
  return (request) => {
    const messages = messagesOf(request)
    const system = messages[0]
    if (system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith('You are role-playing a user')) {
      const said = messages.filter((m) => m.role === 'assistant').length
      const last = messages.at(-1)
      return completion(userLines(said, last?.role === 'user' && typeof last.content === 'string' ? last.content : undefined), { input: 400, output: 30 })
    }
    return completion(agentAnswer(messages))
  }
}

export function deskClient(server: CannedServer): OpenAI {
  return instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 }))
}

const lookupOrder = traceTool('lookup_order', async ({ order_id }: { order_id: string }) => ({ order_id, amount: 19.99, status: 'delivered' }))
const issueRefund = traceTool('issue_refund', async ({ order_id, amount }: { order_id: string; amount: number }) => ({ refund_id: `re_${order_id}`, amount }))

const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'lookup_order',
      description: 'Find an order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'issue_refund',
      description: 'Refund an order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] },
    },
  },
]

/** The agent under test: one reply per user message, running its tools until the model answers in text. `edit` changes a reply before it is returned. */
export function supportAgent(client: OpenAI, edit: (reply: string, exchange: number) => string = (reply) => reply) {
  return async (_message: string, transcript: Transcript, { exchange }: { exchange: number; session: Session }): Promise<string> => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: AGENT_PROMPT }, ...chatHistory(transcript)]
    for (let step = 0; step < 5; step++) {
      const response = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS })
      const message = response.choices[0]!.message
      if (message.tool_calls === undefined || message.tool_calls.length === 0) return edit(message.content ?? '', exchange)
      messages.push(message)
      for (const call of message.tool_calls) {
        if (call.type !== 'function') continue
        const args = JSON.parse(call.function.arguments) as { order_id: string; amount: number }
        const result = call.function.name === 'lookup_order' ? await lookupOrder(args) : await issueRefund(args)
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
      }
    }
    throw new Error('the agent took more than 5 steps')
  }
}
