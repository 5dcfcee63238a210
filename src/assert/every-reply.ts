/**
 * Every reply of the agent in a conversation passes a check: a function, a
 * RegExp, or an asymmetric matcher (`expect.not.stringContaining('@')`).
 * The failure names the first reply that failed, quoting it, and how many did.
 */
import { isThenable } from '../base/thenable.js'
import type { ConversationMessage, ConversationRecord } from '../trace/types.js'
import { toTrace, type TraceSource } from './arguments.js'
import { failConversation } from './conversation-fail.js'
import { describeEnd, quote, repliesOf, requireConversation, userMessageOf } from './conversation-record.js'
import { isAsymmetricMatcher, matches, type AsymmetricMatcher } from './equality.js'
import { describeReceived } from './received.js'
import { render } from './render.js'

/** What a reply check is told besides the reply's text. */
export interface ReplyContext {
  /** The exchange the reply belongs to: 1 for the reply to the user's first message. */
  exchange: number
  /** What the simulated user said, that the agent replied to ('' when the trace has no such message). */
  message: string
  /** The indexes of the agent's turns recorded while it produced the reply. */
  turns: readonly number[]
}

/**
 * How a reply is checked: a function that throws or returns false to fail it
 * (anything else passes, so it may end in an `expect()`), a RegExp it must
 * match, or an asymmetric matcher.
 * @example (reply, { exchange }) => exchange === 1 || !reply.startsWith('Hello')
 */
export type ReplyCheck = ((reply: string, context: ReplyContext) => unknown) | RegExp | AsymmetricMatcher

/** A reply that failed its check, and why (when the check said more than no). */
interface FailedReply {
  reply: ConversationMessage
  why: string | undefined
}

const SHAPE =
  "a function (reply, { exchange, message, turns }) that throws or returns false to fail, a RegExp or an asymmetric matcher (expect.stringContaining('order'))"

export function requireReplyCheck(fn: string, check: unknown): ReplyCheck {
  if (typeof check === 'function' || check instanceof RegExp || isAsymmetricMatcher(check)) return check as ReplyCheck
  throw new TypeError(`${fn}(): check must be ${SHAPE}, got ${describeReceived(check)}.`)
}

/** `/order/i`, `StringContaining "refund"`, `the check`, `the check noCardNumbers` (a named function). */
export function describeCheck(check: ReplyCheck): string {
  if (check instanceof RegExp) return String(check)
  if (typeof check !== 'function') return render(check)
  return check.name === '' ? 'the check' : `the check ${check.name}`
}

/** `does not match /order/i`, `failed the check`, `failed the check noCardNumbers`. */
function describeCheckFailure(check: ReplyCheck): string {
  return typeof check === 'function' ? `failed ${describeCheck(check)}` : `does not match ${describeCheck(check)}`
}

/** The first line of what a check threw. */
function thrown(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.split('\n')[0] ?? ''
}

/** Why `reply` fails `check` (undefined when it passes); throws the TypeError for a check that returns a promise. */
function verdict(fn: string, check: ReplyCheck, reply: ConversationMessage, record: ConversationRecord): FailedReply | undefined {
  // search() ignores a /g or /y regex's lastIndex, so a shared regex gives the same answer for every reply.
  if (check instanceof RegExp) return reply.content.search(check) === -1 ? { reply, why: undefined } : undefined
  if (typeof check !== 'function') return matches(check, reply.content) ? undefined : { reply, why: undefined }
  const context: ReplyContext = { exchange: reply.exchange, message: userMessageOf(record, reply.exchange)?.content ?? '', turns: reply.turns ?? [] }
  let answer: unknown
  try {
    answer = check(reply.content, context)
  } catch (error) {
    return { reply, why: `the check threw ${thrown(error)}` }
  }
  if (isThenable(answer)) {
    throw new TypeError(
      `${fn}(): check returned a Promise for the reply of exchange ${reply.exchange}: replies are checked synchronously. To await something for each reply, loop over trace.conversation.messages.`,
    )
  }
  // As repeat()'s checks: anything but false passes, so a check may end in expect(reply)... (which returns an Assertion).
  return answer === false ? { reply, why: 'the check returned false' } : undefined
}

/** The replies of `record` that fail `check`, in order. */
function failedReplies(fn: string, record: ConversationRecord, check: ReplyCheck): FailedReply[] {
  const failed: FailedReply[] = []
  for (const reply of repliesOf(record)) {
    const failure = verdict(fn, check, reply, record)
    if (failure !== undefined) failed.push(failure)
  }
  return failed
}

/** `the agent gave no reply to check: ...`: a check of no reply proves nothing, so it fails (also with `.not`). */
function noReplies(record: ConversationRecord): string {
  return `the agent gave no reply to check: ${describeEnd(record)}`
}

/** `2 of 4 replies failed (exchanges 2, 4)`. */
function howMany(failed: readonly FailedReply[], replies: number): string {
  const exchanges = failed.map((f) => f.reply.exchange)
  return `${failed.length} of ${replies} ${replies === 1 ? 'reply' : 'replies'} failed (${exchanges.length === 1 ? 'exchange' : 'exchanges'} ${exchanges.join(', ')})`
}

/**
 * Passes when every reply of the agent passes `check`. A conversation with no
 * reply fails: a check of nothing proves nothing.
 * @example assertEveryReply(conv, (reply) => !/\b\d{16}\b/.test(reply))
 * @example assertEveryReply(conv, /order/i)
 */
export function assertEveryReply(source: TraceSource, check: ReplyCheck): void {
  const fn = 'assertEveryReply'
  const trace = toTrace(fn, source)
  const wanted = requireReplyCheck(fn, check)
  const record = requireConversation(fn, trace)
  const replies = repliesOf(record)
  if (replies.length === 0) failConversation(trace, record, noReplies(record))
  const failed = failedReplies(fn, record, wanted)
  const first = failed[0]
  if (first === undefined) return
  const { exchange } = first.reply
  failConversation(trace, record, `the agent's reply in exchange ${exchange} ${describeCheckFailure(wanted)}: ${quote(first.reply.content)}`, {
    exchanges: { from: exchange, to: exchange },
    causes: [first.why, howMany(failed, replies.length)],
  })
}
