/**
 * The demo's agent: a refund assistant with three tools and a scripted model,
 * so it runs with no API key and no network. The loop is the one real agents
 * have: ask the model, run the tools it asks for, feed results back, repeat
 * until it answers in text.
 */
import type { Session } from '../../session/session.js'

interface Order {
  order_id: string
  amount: number
  status: 'delivered' | 'shipped'
  days_since_delivery: number
}

const ORDERS: Record<string, Order> = {
  '42': { order_id: '42', amount: 19.99, status: 'delivered', days_since_delivery: 3 },
}

type ToolArgs = Record<string, unknown>
type Message = { role: string; content: string }

const TOOLS: Record<string, (args: ToolArgs) => unknown> = {
  lookup_order: ({ order_id }) => {
    const order = ORDERS[String(order_id)]
    if (order === undefined) throw new Error(`no order ${String(order_id)}`)
    return order
  },
  check_policy: ({ days_since_delivery }) => ({ eligible: Number(days_since_delivery) <= 30, window_days: 30 }),
  issue_refund: ({ order_id, amount }) => ({ ok: true, refund_id: `r_${String(order_id)}`, amount }),
}

interface ModelReply {
  toolCalls: Array<{ name: string; arguments: ToolArgs; callId: string }>
  text: string | null
  usage: { input_tokens: number; output_tokens: number }
}

const PLAN: ReadonlyArray<ModelReply['toolCalls'][number]> = [
  { name: 'lookup_order', arguments: { order_id: '42' }, callId: 'call_lookup' },
  { name: 'check_policy', arguments: { days_since_delivery: 3 }, callId: 'call_policy' },
  { name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 }, callId: 'call_refund' },
]

/** How the scripted model behaves: as trained, or after a prompt change that drops the policy check. */
export interface AgentVariant {
  /** Refund without calling check_policy. Default: false. */
  skipPolicy?: boolean
}

/** A scripted stand-in for an LLM: one reply per step, like a recorded conversation. */
function scriptedModel(step: number, messages: readonly Message[], { skipPolicy = false }: AgentVariant): ModelReply {
  const usage = { input_tokens: 90 + messages.length * 40, output_tokens: 18 }
  const plan = skipPolicy ? PLAN.filter((call) => call.name !== 'check_policy') : PLAN
  const call = plan[step]
  if (call !== undefined) return { toolCalls: [call], text: null, usage }
  return { toolCalls: [], text: 'Refunded $19.99 for order 42. The money is back in 3-5 days.', usage: { ...usage, output_tokens: 16 } }
}

/** Runs the agent inside session `s` and returns its final answer. */
export async function runRefundAgent(s: Session, request: string, variant: AgentVariant = {}): Promise<string> {
  const messages: Message[] = [
    { role: 'system', content: 'You are a refund assistant. Check the order and the policy before refunding.' },
    { role: 'user', content: request },
  ]
  for (let step = 0; step < 8; step++) {
    const started = performance.now()
    const reply = scriptedModel(step, messages, variant)
    s.logLlmCall({
      messages: [...messages],
      toolCalls: reply.toolCalls,
      responseText: reply.text,
      model: 'scripted-gpt',
      tokenUsage: reply.usage,
      latencyMs: performance.now() - started,
    })
    if (reply.toolCalls.length === 0) return reply.text ?? ''
    for (const call of reply.toolCalls) {
      const toolStarted = performance.now()
      try {
        const result = await Promise.resolve(TOOLS[call.name]!(call.arguments))
        s.logToolResult(call.name, { callId: call.callId, result, durationMs: performance.now() - toolStarted })
        messages.push({ role: 'tool', content: JSON.stringify(result) })
      } catch (error) {
        s.logToolResult(call.name, { callId: call.callId, error, durationMs: performance.now() - toolStarted })
        messages.push({ role: 'tool', content: `error: ${String(error)}` })
      }
    }
  }
  throw new Error('the agent did not finish in 8 steps')
}
