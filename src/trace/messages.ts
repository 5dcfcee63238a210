/**
 * Message histories that grow linearly on disk.
 *
 * Agents send the whole conversation with every model call, so a file that
 * kept each call's full list would grow with the square of the conversation
 * (a 250-turn run with 20 KB tool outputs passes V8's string limit). A call
 * whose messages begin like an earlier call's is written as the messages that
 * are new, plus `messages_base: { turn, count }`: "the first `count` messages
 * of turn `turn`'s full list come first". Loading expands it again, so every
 * in-memory trace holds each call's full list, the prefix shared with the
 * earlier call by reference.
 *
 * reagent-flow 0.5 reads `messages` as a list of `{ role, content }` and
 * ignores the extra key, so it sees each call's new messages only.
 */
import { TraceFormatError } from '../errors/index.js'
import { jsonEqual } from './json-equal.js'
import type { LlmCall, Message, Turn } from './types.js'

/** The first `count` messages of turn `turn`'s full list come before this call's own. */
export interface MessagesBase {
  turn: number
  count: number
}

/** How many earlier calls are tried as the base: agents interleave a few conversations at most. */
const RECENT_CALLS = 8

function sameMessage(a: Message, b: Message): boolean {
  return a === b || (a.role === b.role && jsonEqual(a.content, b.content))
}

/** How many messages at the start of `a` and `b` are the same. */
function commonPrefix(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && sameMessage(a[i]!, b[i]!)) i++
  return i
}

/** The earlier list (index in `lists`) that shares the longest start with `messages`, most recent first on ties. */
function bestBase(messages: readonly Message[], lists: ReadonlyArray<readonly Message[] | null>, from: number): MessagesBase | undefined {
  let best: MessagesBase | undefined
  for (let j = from - 1, tried = 0; j >= 0 && tried < RECENT_CALLS; j--) {
    const earlier = lists[j]
    if (earlier == null || earlier.length === 0) continue
    tried++
    // A list no longer than the best start found cannot share a longer one: skip its comparison.
    if (best !== undefined && earlier.length <= best.count) continue
    const count = commonPrefix(messages, earlier)
    if (count > 0 && (best === undefined || count > best.count)) best = { turn: j, count }
  }
  return best
}

/**
 * Recording side: the messages of a new call, with the messages it shares
 * with a recent call replaced by that call's objects, so that memory and the
 * file hold each message once.
 */
export class MessageHistory {
  readonly #recent: Message[][] = []

  share(messages: Message[]): Message[] {
    const lists = this.#recent
    const base = bestBase(messages, lists, lists.length)
    if (base !== undefined) {
      const earlier = lists[base.turn]!
      for (let i = 0; i < base.count; i++) messages[i] = earlier[i]!
    }
    lists.push(messages)
    if (lists.length > RECENT_CALLS) lists.shift()
    return messages
  }
}

/**
 * Writing side: the calls of `turns` as a file holds them. A call whose
 * messages begin like a recent call's has only its new messages, and
 * `messages_base`; other calls are returned as they are.
 */
export function encodeMessages(turns: readonly Turn[], at: number): LlmCall {
  const call = turns[at]!.llm_call
  const messages = call.messages
  if (messages === null || messages.length === 0 || at === 0) return call
  const lists = turns.slice(Math.max(0, at - RECENT_CALLS), at).map((turn) => turn.llm_call.messages)
  const found = bestBase(messages, lists, lists.length)
  if (found === undefined) return call
  const base: MessagesBase = { turn: at - lists.length + found.turn, count: found.count }
  return { ...call, messages: messages.slice(base.count), messages_base: base }
}

/**
 * Loading side: every call's full message list, from the new messages and
 * `messages_base` a file holds (the key is removed). A base that does not
 * point at an earlier call with enough messages is a `TraceFormatError`.
 */
export function expandMessages(turns: Turn[], file: string, firstTurn = 0): void {
  for (let i = firstTurn; i < turns.length; i++) {
    const call = turns[i]!.llm_call
    const base = call.messages_base as MessagesBase | undefined
    if (base === undefined) continue
    const earlier = base.turn < i ? turns[base.turn]?.llm_call.messages : undefined
    if (earlier == null || base.count > earlier.length || call.messages === null) {
      throw new TraceFormatError(
        file,
        `turns[${i}].llm_call.messages_base`,
        'messages_base',
        `refers to the first ${base.count} messages of turn ${base.turn}, which ${base.turn >= i ? 'does not come before this turn' : `has ${earlier?.length ?? 'no'} messages`}`,
      )
    }
    call.messages = base.count === 0 ? call.messages : earlier.slice(0, base.count).concat(call.messages)
    delete call.messages_base
  }
}
