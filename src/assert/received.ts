/**
 * What was given where a run was expected, in one short line, whatever its
 * size. The usual mistake is handing over the agent's own result (a
 * LangChain `{ messages }` state, an SDK response, the answer text) instead
 * of its Session: printing that value whole would bury the one sentence
 * that says so under kilobytes of messages.
 */
import { isThenable } from '../base/thenable.js'
import { cut, plural } from '../report/format-value.js'
import { render } from './render.js'

const MAX_KEYS = 4

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`
}

/** The class name of an object made by a constructor other than Object, else undefined. */
function className(value: object): string | undefined {
  try {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto === null || proto === Object.prototype) return undefined
    const name: unknown = (proto as { constructor?: { name?: unknown } }).constructor?.name
    return typeof name === 'string' && name !== '' ? cut(name, 40) : undefined
  } catch {
    return undefined
  }
}

function keysOf(value: object): string {
  const keys = Object.keys(value)
  if (keys.length === 0) return 'no keys'
  const shown = keys.slice(0, MAX_KEYS).map((key) => JSON.stringify(cut(key, 24)))
  return `${keys.length === 1 ? 'key' : 'keys'} ${shown.join(', ')}${keys.length > MAX_KEYS ? `, … (${keys.length})` : ''}`
}

/** `42 (number)`, `"Refunded." (string)`, `an array of 4 items (the first an AIMessage)`, `an object with key "messages"`, `a Promise`. */
export function describeReceived(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'string') return `${JSON.stringify(cut(value, 40))} (string)`
  if (typeof value === 'function') return `a function${value.name === '' ? '' : ` (${cut(value.name, 40)})`}`
  if (typeof value !== 'object') return `${render(value)} (${typeof value})`
  if (isThenable(value)) return 'a Promise'
  if (Array.isArray(value)) {
    const first: unknown = value[0]
    const kind = first !== null && typeof first === 'object' ? className(first) : undefined
    return `an array of ${plural(value.length, 'item')}${kind === undefined ? '' : ` (the first ${article(kind)})`}`
  }
  const name = className(value)
  return name === undefined ? `an object with ${keysOf(value)}` : `${article(name)} object`
}

/** What to do instead, for the value `describeReceived` described. */
export function receivedHint(value: unknown): string {
  if (value !== null && typeof value === 'object' && isThenable(value)) return ' Await it first: expect(await session(...)).'
  if (typeof value === 'function') return ' Run it inside session() and pass the Session that session() resolves to.'
  return ' Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.'
}
