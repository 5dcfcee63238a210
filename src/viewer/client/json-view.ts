/**
 * A JSON value as a readable, collapsible tree: objects and arrays as
 * disclosure widgets (open to `openDepth`), strings with their line breaks,
 * long lists shown a page at a time. Text only: a string that looks like
 * HTML or a link is shown as the characters it is.
 */
import { h, type Child } from './dom.js'

const PAGE = 100

function scalar(value: unknown): HTMLElement {
  if (typeof value === 'string')
    return h('span', { class: 'json-string' }, JSON.stringify(value).length > 80 || value.includes('\n') ? value : JSON.stringify(value))
  if (value === null) return h('span', { class: 'json-null' }, 'null')
  if (typeof value === 'number') return h('span', { class: 'json-number' }, String(value))
  if (typeof value === 'boolean') return h('span', { class: 'json-boolean' }, String(value))
  return h('span', { class: 'json-other' }, String(value))
}

function entries(value: object): Array<[string, unknown]> {
  return Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value)
}

function container(value: object, depth: number, openDepth: number): HTMLElement {
  const list = entries(value)
  const isArray = Array.isArray(value)
  const summary = isArray ? `[${list.length} item${list.length === 1 ? '' : 's'}]` : `{${list.length} key${list.length === 1 ? '' : 's'}}`
  if (list.length === 0) return h('span', { class: 'json-empty' }, isArray ? '[]' : '{}')
  const body = h('ul', { class: 'json-entries' })
  const showFrom = (start: number): void => {
    for (const [key, item] of list.slice(start, start + PAGE)) {
      body.appendChild(
        h('li', null, h('span', { class: isArray ? 'json-index' : 'json-key' }, isArray ? key : `${key}:`), ' ', jsonNode(item, depth + 1, openDepth)),
      )
    }
    if (start + PAGE < list.length) {
      const more: HTMLButtonElement = h(
        'button',
        {
          type: 'button',
          class: 'link-button',
          on: {
            click: () => {
              more.parentElement?.remove()
              showFrom(start + PAGE)
            },
          },
        },
        `Show ${Math.min(PAGE, list.length - start - PAGE)} more of ${list.length}`,
      )
      body.appendChild(h('li', null, more))
    }
  }
  showFrom(0)
  return h('details', { class: 'json-container', open: depth < openDepth }, h('summary', null, summary), body)
}

export function jsonNode(value: unknown, depth = 0, openDepth = 2): HTMLElement {
  return value !== null && typeof value === 'object' ? container(value, depth, openDepth) : scalar(value)
}

/** A JSON value in a block of its own, with an accessible label. */
export function jsonBlock(value: unknown, label: string, openDepth = 2): HTMLElement {
  return h('div', { class: 'json', role: 'group', aria: { label } }, jsonNode(value, 0, openDepth))
}

/** A definition list of label/value pairs (values left out when null or undefined). */
export function facts(pairs: ReadonlyArray<readonly [string, Child]>): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    pairs
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([label, value]) => h('div', null, h('dt', null, label), h('dd', null, value))),
  )
}
