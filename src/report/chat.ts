/**
 * A recorded conversation as a chat, for `reagent-flow show`: what the
 * simulated user wanted, who said what with the exchange number, the turns
 * each agent reply produced, and how it ended.
 *
 *   Conversation · 2 exchanges · goal: Refund order 42 · persona: terse
 *     1  user:  hi, I want my money back
 *        agent: Which order is it?  (turn 0)
 *     2  user:  order 42
 *        agent: Refunded $19.99 for order 42.  (turns 1–3)
 *     ended by the user after 2 exchanges: goal met ("got the refund")
 *
 * Messages are cut to one line as the turns' texts are (format-value.ts);
 * a conversation of more than 40 exchanges shows its first 10 and last 20,
 * as the stack trace does with turns.
 */
import type { ConversationMessage, ConversationRecord } from '../trace/types.js'
import type { Colors } from './colors.js'
import { describeEnding, describeTurns, type ConversationTone } from './conversation-words.js'
import { oneLineText, plural } from './format-value.js'

const MAX_EXCHANGES_SHOWN = 40
const HEAD_EXCHANGES = 10
const TAIL_EXCHANGES = 20
/** Characters of a message shown, as the turns' texts in `show`. */
const TEXT_WIDTH = 100
/** Characters of the goal and the persona in the title line. */
const FACT_WIDTH = 80

function toneColor(tone: ConversationTone, c: Colors): (text: string) => string {
  return { met: c.green, short: c.yellow, failed: c.red, plain: (text: string) => text }[tone]
}

/** The exchanges to draw: all of them, or the first and last with the number hidden between. */
function visibleExchanges(exchanges: number): { shown: (exchange: number) => boolean; hidden: [number, number] | null } {
  const last = Math.max(exchanges, 0)
  if (last <= MAX_EXCHANGES_SHOWN) return { shown: () => true, hidden: null }
  const from = HEAD_EXCHANGES + 1
  const to = last - TAIL_EXCHANGES
  return { shown: (exchange) => exchange < from || exchange > to, hidden: [from, to] }
}

function messageLine(message: ConversationMessage, first: boolean, numberWidth: number, c: Colors): string {
  const number = first ? String(message.exchange).padStart(numberWidth) : ' '.repeat(numberWidth)
  const who = message.role === 'user' ? c.cyan('user: ') : c.magenta('agent:')
  const turns = message.role === 'assistant' && message.turns !== undefined ? `  ${c.dim(`(${describeTurns(message.turns)})`)}` : ''
  return `    ${number}  ${who} ${oneLineText(message.content, TEXT_WIDTH)}${turns}`
}

/** The lines of `record` as a chat, indented under a run's header (see the file comment). */
export function formatChatLines(record: ConversationRecord, c: Colors): string[] {
  const title = [
    c.bold('Conversation'),
    plural(record.exchanges, 'exchange'),
    record.goal === null ? null : `goal: ${oneLineText(record.goal, FACT_WIDTH)}`,
    record.persona === null ? null : `persona: ${oneLineText(record.persona, FACT_WIDTH)}`,
  ].filter((part): part is string => part !== null)
  const lines = [`  ${title.join(' · ')}`]
  const highest = record.messages.reduce((most, message) => Math.max(most, message.exchange), record.exchanges)
  const numberWidth = String(highest).length
  const { shown, hidden } = visibleExchanges(highest)
  let previous: number | undefined
  let saidHidden = false
  for (const message of record.messages) {
    if (!shown(message.exchange)) {
      if (hidden !== null && !saidHidden) {
        lines.push(c.dim(`    … ${plural(hidden[1] - hidden[0] + 1, 'exchange')} not shown (exchanges ${hidden[0]}–${hidden[1]})`))
        saidHidden = true
      }
      previous = message.exchange
      continue
    }
    lines.push(messageLine(message, message.exchange !== previous, numberWidth, c))
    previous = message.exchange
  }
  if (record.messages.length === 0) lines.push(c.dim('    (nothing was said)'))
  const ending = describeEnding(record)
  lines.push(`    ${toneColor(ending.tone, c)(ending.text)}`)
  return lines
}
