/**
 * The Chat panel of a run of `conversation()` (reagent-flow/simulate): the
 * simulated user's goal and persona, how the conversation ended, and who
 * said what as bubbles, each agent bubble linking to the turns it produced.
 * The words are the ones `reagent-flow show` prints (report/conversation-words.ts).
 *
 * A conversation of thousands of messages shows its first page of bubbles and
 * a button for the next: each page is a few hundred elements, so opening the
 * run never waits on the whole conversation.
 */
import { describeEnding, describeTurns, turnRuns } from '../../report/conversation-words.js'
import type { ConversationMessage, ConversationRecord } from '../../trace/types.js'
import { h, type Child } from './dom.js'
import { formatCount } from './format.js'
import { facts } from './json-view.js'

/** Bubbles drawn at first, and per "show more". */
export const CHAT_PAGE = 200
/** Characters of a message shown before its "show all" button. */
const LONG_MESSAGE = 2000

export interface ChatOptions {
  /** The run's name, for labels. */
  name: string
  /** A turn's position in the run (its address), from its `index`; undefined when the run has no such turn. */
  positionOf: (index: number) => number | undefined
  /** The address of the turn at `position`. */
  turnHref: (position: number) => string
  /** Selects the turn at `position` and brings it into view (a turn link was followed). */
  showTurn: (position: number) => void
  /** The simulated user's own run, when it is in the directory: its address and name. */
  userRun: { href: string; name: string } | null
  /** Bubbles shown so far (kept by the page, so a live update does not fold the chat back). */
  shown: number
  onShowMore: (shown: number) => void
}

/** The text of a message; a very long one cut, with a button for the rest. */
function messageText(content: string): HTMLElement {
  const text = h('div', { class: 'bubble-text' }, content.length > LONG_MESSAGE ? `${content.slice(0, LONG_MESSAGE)}…` : content)
  if (content.length <= LONG_MESSAGE) return text
  const more: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'link-button',
      on: {
        click: () => {
          text.textContent = content
          more.remove()
        },
      },
    },
    `Show all ${formatCount(content.length)} characters`,
  )
  return h('div', null, text, more)
}

/** `turns 1–3` with a link to each turn the reply produced. */
function turnLinks(turns: readonly number[], options: ChatOptions): Child {
  const label = describeTurns(turns)
  if (turns.length === 0) return h('p', { class: 'bubble-turns muted' }, label)
  const links: Child[] = []
  for (const [from, to] of turnRuns(turns)) {
    for (let index = from; index <= to; index++) {
      const position = options.positionOf(index)
      if (links.length > 0) links.push(' ')
      links.push(
        position === undefined
          ? h('span', { class: 'muted', title: 'not in this trace' }, String(index))
          : h(
              'a',
              {
                href: options.turnHref(position),
                class: 'turn-ref',
                aria: { label: `Turn ${index}` },
                on: {
                  click: (event) => {
                    event.preventDefault()
                    options.showTurn(position)
                  },
                },
              },
              String(index),
            ),
      )
    }
  }
  return h('p', { class: 'bubble-turns' }, `${label.startsWith('turns') ? 'Turns' : 'Turn'}: `, links)
}

function bubble(message: ConversationMessage, options: ChatOptions): HTMLElement {
  const isUser = message.role === 'user'
  const who = isUser ? 'User' : 'Agent'
  return h(
    'li',
    // No aria-label: it would stand in for the message itself in some screen readers; the first line says who, and in which exchange.
    { class: `bubble ${isUser ? 'bubble-user' : 'bubble-agent'}`, data: { exchange: message.exchange } },
    h('div', { class: 'bubble-who' }, `${who} · exchange ${message.exchange}`),
    messageText(message.content),
    isUser || message.turns === undefined ? null : turnLinks(message.turns, options),
  )
}

/** Who played the user: a link to its run, its id when the run is elsewhere, or a scripted user (no model, no run). */
function userFact(record: ConversationRecord, options: ChatOptions): Child {
  if (options.userRun !== null) return h('a', { href: options.userRun.href }, options.userRun.name)
  return record.user_trace_id === null ? 'scripted' : `${record.user_trace_id} (not in this directory)`
}

/** The Chat section of a run whose trace has a conversation. */
export function chatSection(record: ConversationRecord, options: ChatOptions): HTMLElement {
  const ending = describeEnding(record, 500)
  const endLine = (): HTMLElement => h('p', { class: `chat-end tone-${ending.tone}` }, ending.text)
  const log = h('ol', { class: 'chat-log', aria: { label: `Chat between the simulated user and ${options.name}` } })
  const more = h('div', { class: 'chat-more' })
  let shown = 0
  const showUpTo = (count: number): void => {
    const until = Math.min(count, record.messages.length)
    for (const message of record.messages.slice(shown, until)) log.appendChild(bubble(message, options))
    shown = until
    const left = record.messages.length - shown
    more.replaceChildren()
    if (left === 0) {
      more.appendChild(endLine())
      return
    }
    more.appendChild(
      h(
        'button',
        {
          type: 'button',
          on: {
            click: () => {
              showUpTo(shown + CHAT_PAGE)
              options.onShowMore(shown)
            },
          },
        },
        `Show ${formatCount(Math.min(CHAT_PAGE, left))} more messages (${formatCount(left)} not shown)`,
      ),
    )
  }
  showUpTo(Math.max(options.shown, CHAT_PAGE))
  return h(
    'section',
    { class: 'section chat', aria: { labelledby: 'chat-heading' } },
    h('h2', { id: 'chat-heading' }, `Chat (${formatCount(record.exchanges)} exchange${record.exchanges === 1 ? '' : 's'})`),
    facts([
      ['Goal', record.goal],
      ['Persona', record.persona],
      ['User', userFact(record, options)],
      ['Ended', h('span', { class: `tone-${ending.tone}` }, ending.text)],
    ]),
    record.messages.length === 0 ? h('p', { class: 'empty' }, 'Nothing was said.') : log,
    record.messages.length === 0 ? null : more,
  )
}
