/**
 * Matchers about a conversation (`conversation()` in reagent-flow/simulate):
 * toEndWithGoalMet, toEndWithinExchanges, toSatisfyEveryReply,
 * toHaveCalledToolBeforeExchange. Each is a core assertion of
 * src/assert/ run as a matcher, plus the message `.not` needs, drawn as the
 * core draws its failures: the headline, the exchanges, the agent stack trace.
 */
import type { MatcherState } from 'vitest'
import { requireToolName } from '../assert/arguments.js'
import { assertEndedWithGoalMet, assertEndedWithinExchanges } from '../assert/conversation-end.js'
import { describeConversationFailure } from '../assert/conversation-fail.js'
import { describeEnd, repliesOf, requireConversation, requireExchange } from '../assert/conversation-record.js'
import { assertEveryReply, describeCheck, requireReplyCheck, type ReplyCheck } from '../assert/every-reply.js'
import { assertCalledBeforeExchange, assertNotCalledBeforeExchange, requireLaterExchange } from '../assert/exchange-calls.js'
import { plural } from '../report/format-value.js'
import type { ConversationRecord, Trace } from '../trace/types.js'
import { failureMessage, outcomeOf, RECEIVED, receivedTrace, underMatcherName, type MatcherOutcome } from './outcome.js'

/** The run given to `expect()` and its conversation; a TypeError naming the matcher when it has none. */
function receivedConversation(matcher: string, received: unknown): { trace: Trace; record: ConversationRecord } {
  const trace = receivedTrace(matcher, received)
  return { trace, record: requireConversation(matcher, trace, RECEIVED) }
}

export function toEndWithGoalMet(this: MatcherState, received: unknown): MatcherOutcome {
  const { trace, record } = receivedConversation('toEndWithGoalMet', received)
  return outcomeOf(
    () => assertEndedWithGoalMet(trace),
    () => describeConversationFailure(trace, record, `expected the conversation not to end with the user's goal met, but ${describeEnd(record)}`),
  )
}

export function toEndWithinExchanges(this: MatcherState, received: unknown, n: number): MatcherOutcome {
  const name = 'toEndWithinExchanges'
  const { trace, record } = receivedConversation(name, received)
  requireExchange(name, 'n', n)
  return outcomeOf(
    () => assertEndedWithinExchanges(trace, n),
    () => describeConversationFailure(trace, record, `expected the conversation not to end within ${plural(n, 'exchange')}, but ${describeEnd(record)}`),
  )
}

export function toSatisfyEveryReply(this: MatcherState, received: unknown, check: ReplyCheck): MatcherOutcome {
  const name = 'toSatisfyEveryReply'
  const { trace, record } = receivedConversation(name, received)
  const wanted = requireReplyCheck(name, check)
  const replies = repliesOf(record)
  // No reply: a check of nothing proves nothing, so the core's failure stands with `.not` too.
  if (replies.length === 0) underMatcherName(name, 'assertEveryReply', () => assertEveryReply(trace, wanted))
  return outcomeOf(
    () => underMatcherName(name, 'assertEveryReply', () => assertEveryReply(trace, wanted)),
    () => describeConversationFailure(trace, record, unexpectedlyPassed(wanted, replies.length)),
  )
}

/** `.not`'s headline: `expected some reply of the agent not to match /order/i, but all 3 replies did`. */
function unexpectedlyPassed(check: ReplyCheck, replies: number): string {
  const all = replies === 1 ? 'the one reply' : `all ${replies} replies`
  return typeof check === 'function'
    ? `expected some reply of the agent to fail ${describeCheck(check)}, but ${all} passed it`
    : `expected some reply of the agent not to match ${describeCheck(check)}, but ${all} did`
}

export function toHaveCalledToolBeforeExchange(this: MatcherState, received: unknown, tool: string, n: number): MatcherOutcome {
  const name = 'toHaveCalledToolBeforeExchange'
  const { trace } = receivedConversation(name, received)
  requireToolName(name, 'tool', tool)
  requireLaterExchange(name, n)
  return outcomeOf(
    () => assertCalledBeforeExchange(trace, tool, n),
    () => failureMessage(() => assertNotCalledBeforeExchange(trace, tool, n)),
  )
}
