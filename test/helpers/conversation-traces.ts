/**
 * Conversations built by hand (the record conversation() writes), for the
 * assertions and matchers about conversations: fixed ids and times, so a
 * failure message can be asserted byte for byte.
 */
import type { ConversationMessage, ConversationRecord, Trace } from '../../src/trace/types.js'
import { buildTrace, type TurnSpec } from './trace-builder.js'

/** One exchange: what the user said, and the agent's reply with the turns it took (none: no reply). */
export interface ExchangeSpec {
  user: string
  agent?: { text: string; turns: TurnSpec[] }
}

/** A conversation trace: each exchange's turns in order, and the record of who said what. */
export function buildConversation(name: string, exchanges: ExchangeSpec[], end: Partial<ConversationRecord> = {}): Trace {
  const turns: TurnSpec[] = []
  const messages: ConversationMessage[] = []
  exchanges.forEach((spec, i) => {
    const exchange = i + 1
    messages.push({ role: 'user', content: spec.user, exchange })
    if (spec.agent === undefined) return
    const first = turns.length
    turns.push(...spec.agent.turns)
    messages.push({ role: 'assistant', content: spec.agent.text, exchange, turns: spec.agent.turns.map((_, k) => first + k) })
  })
  const conversation: ConversationRecord = {
    goal: 'Get a refund for order 42',
    persona: 'terse, impatient',
    ended_by: 'user',
    goal_met: true,
    reason: 'the refund was issued',
    max_turns: 8,
    exchanges: exchanges.length,
    user_trace_id: `trace-${name} > user`,
    messages,
    ...end,
  }
  return buildTrace(name, turns, { conversation })
}

/** A support agent that asks for the order, looks it up and refunds it: the user ends it with its goal met after 3 exchanges. */
export const refunded = buildConversation('support', [
  { user: 'hi, I want my money back', agent: { text: "Sure, what's your order number?", turns: [{ text: "Sure, what's your order number?" }] } },
  {
    user: 'order 42',
    agent: {
      text: 'Refunded $19.99 for order 42.',
      turns: [
        { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }] },
        { calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99 }, result: { ok: true } }] },
        { text: 'Refunded $19.99 for order 42.' },
      ],
    },
  },
  { user: 'thanks', agent: { text: "You're welcome!", turns: [{ text: "You're welcome!" }] } },
])

/** An agent that never takes the order number: the conversation stops at maxTurns (3). */
export const stuck = buildConversation(
  'support',
  [
    { user: 'hi, I want my money back', agent: { text: 'What is your order number?', turns: [{ text: 'What is your order number?' }] } },
    { user: 'order 42', agent: { text: 'What is your order number?', turns: [{ text: 'What is your order number?' }] } },
    { user: 'I SAID order 42', agent: { text: 'What is your order number?', turns: [{ text: 'What is your order number?' }] } },
  ],
  { ended_by: 'max_turns', goal_met: null, reason: 'reached maxTurns (3)', max_turns: 3 },
)
