/**
 * How a conversation ended: because the simulated user's goal was met, and
 * within how many exchanges. Both read the trace's `conversation` record, so
 * they work on the Session conversation() resolves to and on a loaded trace.
 */
import { plural } from '../report/format-value.js'
import type { ConversationRecord } from '../trace/types.js'
import { toTrace, type TraceSource } from './arguments.js'
import { failConversation } from './conversation-fail.js'
import { describeEnd, quote, requireConversation, requireExchange } from './conversation-record.js'

/** True when the simulated user ended the conversation itself, saying its goal was met. */
function endedWithGoalMet(record: ConversationRecord): boolean {
  return record.ended_by === 'user' && record.goal_met === true
}

/** What explains how a conversation ended: running out of exchanges, a user that did not say, and what the user was after. */
function endCauses(record: ConversationRecord): Array<string | undefined> {
  const outOfExchanges =
    record.ended_by === 'max_turns'
      ? `the simulated user did not say it was done within maxTurns (${record.max_turns}): the agent may not meet its goal, or need more exchanges than maxTurns allows`
      : undefined
  const unsaid =
    record.ended_by === 'user' && record.goal_met === null && record.user_trace_id === null
      ? 'a scripted user that is done says whether its goal was met: return { done: true, reason, goalMet: true }'
      : undefined
  const goal =
    record.goal === null
      ? undefined
      : `the simulated user's goal: ${quote(record.goal)}${record.persona === null ? '' : ` (persona: ${quote(record.persona)})`}`
  return [outOfExchanges, unsaid, goal]
}

/**
 * Passes when the simulated user ended the conversation saying its goal was
 * met; not when it reached `maxTurns`, the `stop` function ended it, it
 * failed, or the user gave up. The failure says how it ended and shows the last exchanges.
 * @example assertEndedWithGoalMet(conv)
 */
export function assertEndedWithGoalMet(source: TraceSource): void {
  const fn = 'assertEndedWithGoalMet'
  const trace = toTrace(fn, source)
  const record = requireConversation(fn, trace)
  if (endedWithGoalMet(record)) return
  failConversation(trace, record, `the conversation did not end with the user's goal met: ${describeEnd(record)}`, { causes: endCauses(record) })
}

/** True when the conversation ended by itself (the user, or the `stop` function) within `n` exchanges. */
function endedWithin(record: ConversationRecord, n: number): boolean {
  return (record.ended_by === 'user' || record.ended_by === 'stop') && record.exchanges <= n
}

/**
 * Passes when the conversation ended (the simulated user said it was done, or
 * the `stop` function ended it) after at most `n` exchanges. Reaching
 * `maxTurns` or failing is not ending, however few the exchanges.
 * @example assertEndedWithinExchanges(conv, 4)
 */
export function assertEndedWithinExchanges(source: TraceSource, n: number): void {
  const fn = 'assertEndedWithinExchanges'
  const trace = toTrace(fn, source)
  const limit = requireExchange(fn, 'n', n)
  const record = requireConversation(fn, trace)
  if (endedWithin(record, limit)) return
  failConversation(trace, record, `the conversation did not end within ${plural(limit, 'exchange')}: ${describeEnd(record)}`, {
    causes: endCauses(record),
  })
}
