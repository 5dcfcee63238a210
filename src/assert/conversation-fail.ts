/**
 * How an assertion about a conversation fails: the failed assertion on the
 * first line, then the exchanges that show it (the simulated user's messages
 * and the agent's replies, with the turns each reply took), then the agent
 * stack trace. The chat comes first because it is what a reader of a
 * conversation test looks for; the turns below say what the agent did.
 */
import { AgentAssertionError } from '../errors/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import type { ConversationRecord, Trace } from '../trace/types.js'
import { quote } from './conversation-record.js'

/** The exchanges a failure shows when it names none: the last ones, where a conversation ends. */
const LAST_EXCHANGES = 3

export interface ConversationFailure {
  /** The exchanges to show, from and to (1-based, inclusive). Default: the last three. */
  exchanges?: { from: number; to: number }
  /** The tool the assertion is about (highlighted in the turns). */
  tool?: string
  /** The assertion's own findings, most telling first. */
  causes?: ReadonlyArray<string | undefined>
}

function shownRange(record: ConversationRecord, wanted: ConversationFailure['exchanges']): { from: number; to: number } {
  const last = Math.max(record.exchanges, ...record.messages.map((message) => message.exchange))
  const to = Math.min(wanted?.to ?? last, last)
  return { from: Math.max(1, wanted?.from ?? to - LAST_EXCHANGES + 1), to }
}

/** `(turns 3, 4)`: where the agent's reply came from. */
function turnsNote(turns: readonly number[] | undefined): string {
  if (turns === undefined || turns.length === 0) return ''
  return `  (${turns.length === 1 ? 'turn' : 'turns'} ${turns.join(', ')})`
}

/**
 *   conversation: exchanges 2-3 of 3
 *     2 user   “It's order 42.”
 *       agent  “I've refunded order 42.”  (turns 1, 2)
 */
function formatExchanges(record: ConversationRecord, wanted?: ConversationFailure['exchanges']): string[] {
  const { from, to } = shownRange(record, wanted)
  if (to < 1) return ['conversation: no exchanges (the user said nothing)']
  const width = String(to).length
  const total = `of ${record.exchanges}`
  const lines = [from === to ? `conversation: exchange ${from} ${total}` : `conversation: exchanges ${from}-${to} ${total}`]
  for (let exchange = from; exchange <= to; exchange++) {
    const said = record.messages.filter((message) => message.exchange === exchange)
    const user = said.find((message) => message.role === 'user')
    const reply = said.find((message) => message.role === 'assistant')
    const number = String(exchange).padStart(width)
    const blank = ' '.repeat(width)
    lines.push(`  ${number} user   ${user === undefined ? '(no message)' : quote(user.content)}`)
    lines.push(`  ${blank} agent  ${reply === undefined ? '(no reply)' : `${quote(reply.content)}${turnsNote(reply.turns)}`}`)
  }
  return lines
}

const present = (items: ReadonlyArray<string | undefined> = []): string[] => items.filter((item): item is string => item !== undefined)

/** The message of a failed conversation assertion (also what a matcher's `.not` shows). */
export function describeConversationFailure(trace: Trace, record: ConversationRecord, assertion: string, failure: ConversationFailure = {}): string {
  const stack = formatStackTrace(trace, {
    assertion,
    causes: present(failure.causes),
    ...(failure.tool === undefined ? {} : { tool: failure.tool }),
  })
  return `${assertion}\n\n${formatExchanges(record, failure.exchanges).join('\n')}\n\n${stack}`
}

export function failConversation(trace: Trace, record: ConversationRecord, assertion: string, failure: ConversationFailure = {}): never {
  throw new AgentAssertionError(describeConversationFailure(trace, record, assertion, failure), { traceName: trace.name, assertion })
}
