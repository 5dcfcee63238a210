/**
 * Traces of a conversation (`conversation()` of reagent-flow/simulate), built
 * by hand: a support agent that asks for the order, looks it up and refunds
 * it, with the `conversation` field a recorded run carries. Fixed ids and
 * times, checked against the trace schema by buildTrace.
 */
import type { ConversationMessage, ConversationRecord, Trace } from '../../src/trace/types.js'
import { buildTrace } from './trace-builder.js'

/** The conversation of `supportConversation()`: 3 exchanges, ended by the user with its goal met. */
export function supportRecord(overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    goal: 'Get a refund for order 42',
    persona: 'terse, impatient',
    ended_by: 'user',
    goal_met: true,
    reason: 'got the refund',
    max_turns: 8,
    exchanges: 3,
    user_trace_id: 'trace-support > user',
    messages: [
      { role: 'user', content: 'hi, I want my money back', exchange: 1 },
      { role: 'assistant', content: 'Which order is it?', exchange: 1, turns: [0] },
      { role: 'user', content: 'order 42', exchange: 2 },
      { role: 'assistant', content: 'Refunded $19.99 for order 42.', exchange: 2, turns: [1, 2, 3] },
      { role: 'user', content: 'thanks', exchange: 3 },
      { role: 'assistant', content: 'You are welcome!', exchange: 3, turns: [4] },
    ],
    ...overrides,
  }
}

/** The agent's trace of the support conversation: 5 turns (ask, look up, refund, answer, thank). */
export function supportConversation(name = 'support', extra: Partial<Trace> = {}, record: ConversationRecord = supportRecord()): Trace {
  return buildTrace(
    name,
    [
      { text: 'Which order is it?' },
      { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }] },
      { calls: [{ name: 'issue_refund', args: { order_id: '42' }, result: { ok: true } }] },
      { text: 'Refunded $19.99 for order 42.' },
      { text: 'You are welcome!' },
    ],
    { conversation: record, ...extra },
  )
}

/** A conversation of `exchanges` exchanges, each a user message and a one-turn agent reply (`exchange N`). */
export function longRecord(exchanges: number, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  const messages: ConversationMessage[] = []
  for (let exchange = 1; exchange <= exchanges; exchange++) {
    messages.push({ role: 'user', content: `question ${exchange}`, exchange })
    messages.push({ role: 'assistant', content: `answer ${exchange}`, exchange, turns: [exchange - 1] })
  }
  return {
    ...supportRecord(),
    ended_by: 'max_turns',
    goal_met: null,
    reason: `reached maxTurns (${exchanges})`,
    max_turns: exchanges,
    exchanges,
    messages,
    ...overrides,
  }
}

/** The agent's trace of `longRecord(exchanges)`: one turn per exchange. */
export function longConversation(name: string, exchanges: number, extra: Partial<Trace> = {}): Trace {
  return buildTrace(
    name,
    Array.from({ length: exchanges }, (_, i) => ({ text: `answer ${i + 1}`, model: 'gpt-4o-mini' })),
    { conversation: longRecord(exchanges), ...extra },
  )
}
