/**
 * The conversation a run holds (`conversation()` in reagent-flow/simulate),
 * read for the assertions about it: the record, or a TypeError saying the run
 * is not a conversation and how to make one; and how it ended, in words.
 */
import { oneLineText, plural } from '../report/format-value.js'
import type { ConversationMessage, ConversationRecord, Trace } from '../trace/types.js'
import { describeReceived } from './received.js'

function isConversation(value: unknown): value is ConversationRecord {
  return value !== null && typeof value === 'object' && Array.isArray((value as ConversationRecord).messages)
}

/**
 * The conversation of `trace`. A run recorded by `session()`, an adapter or
 * the Python reagent-flow has none: asserting on it is a mistake in the test,
 * so a TypeError rather than a failed assertion (which `.not` would turn into a pass).
 */
export function requireConversation(fn: string, trace: Trace, argument = 'the first argument'): ConversationRecord {
  if (isConversation(trace.conversation)) return trace.conversation
  throw new TypeError(
    `${fn}(): ${argument} is a run that is not a conversation ("${trace.name}" has no conversation on its trace). ` +
      'Run the agent with conversation(name, { user, maxTurns }, agent) from reagent-flow/simulate and pass the Session it resolves to (or a trace it wrote).',
  )
}

/** The agent's replies, in order. */
export function repliesOf(record: ConversationRecord): ConversationMessage[] {
  return record.messages.filter((message) => message.role === 'assistant')
}

/** What the user said to open `exchange`, or undefined. */
export function userMessageOf(record: ConversationRecord, exchange: number): ConversationMessage | undefined {
  return record.messages.find((message) => message.role === 'user' && message.exchange === exchange)
}

/** Text the simulated user or the agent wrote, on one line and quoted as the agent stack trace quotes answers. */
export function quote(text: string, max = 120): string {
  return `“${oneLineText(text, max)}”`
}

/**
 * How the conversation ended, as the end of a sentence:
 * `the user ended it after 3 exchanges with its goal met: “refund r_42 issued”`,
 * `it stopped at maxTurns (8) after 8 exchanges; the user never said it was done`.
 */
export function describeEnd(record: ConversationRecord): string {
  const after = `after ${plural(record.exchanges, 'exchange')}`
  switch (record.ended_by) {
    case 'user': {
      const met = record.goal_met === null ? 'without saying whether its goal was met' : record.goal_met ? 'with its goal met' : 'with its goal not met'
      return `the user ended it ${after} ${met}${record.reason === null ? '' : `: ${quote(record.reason)}`}`
    }
    case 'max_turns':
      return `it stopped at maxTurns (${record.max_turns}) ${after}; the user never said it was done`
    case 'stop':
      return `the stop function ended it ${after}${record.reason === null ? '' : ` (${record.reason})`}`
    case 'error':
      return `it failed in exchange ${record.exchanges}${record.reason === null ? '' : `: ${record.reason}`}`
  }
}

/** An exchange number: a whole number >= 1 (exchanges count from 1); else a RangeError naming the argument. */
export function requireExchange(fn: string, argument: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value
  throw new RangeError(`${fn}(): ${argument} must be a whole number >= 1 (exchanges count from 1), got ${describeReceived(value)}.`)
}
