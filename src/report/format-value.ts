/** Short, single-line renderings of recorded values for terminal reports. */
import type { TraceStatus } from '../trace/types.js'
import type { Colors } from './colors.js'

/** Cuts `text` to `max` characters, the last one an ellipsis when something was cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

function isPlainContainer(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value)
  return Array.isArray(value) || proto === Object.prototype || proto === null
}

/** What JSON.stringify writes for a value that is not a plain array or object (cut to `max` for strings); never throws. */
function leafJson(value: unknown, max: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > max ? value.slice(0, max + 1) : value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    try {
      return String(value)
    } catch {
      return '[Unrenderable]'
    }
  }
}

interface Open {
  value: Record<string, unknown> | unknown[]
  keys: string[] | undefined
  index: number
  /** Entries written so far (a comma goes before every one but the first). */
  written: number
}

/**
 * JSON.stringify(value), written only as far as `max` characters: a 10 MB
 * result or one nested 100,000 levels deep costs what is shown, and never
 * overflows the stack.
 */
function jsonPrefix(value: unknown, max: number): string {
  let out = ''
  const stack: Open[] = []
  const write = (item: unknown): void => {
    if (item === null || typeof item !== 'object' || !isPlainContainer(item) || typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      out += leafJson(item, max)
      return
    }
    const isArray = Array.isArray(item)
    out += isArray ? '[' : '{'
    stack.push({ value: item as Open['value'], keys: isArray ? undefined : Object.keys(item), index: 0, written: 0 })
  }
  write(value)
  while (stack.length > 0 && out.length <= max) {
    const open = stack[stack.length - 1]!
    if (open.keys === undefined) {
      const items = open.value as unknown[]
      if (open.index >= items.length) {
        out += ']'
        stack.pop()
        continue
      }
      if (open.index > 0) out += ','
      const item = items[open.index++]
      write(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item)
      continue
    }
    const object = open.value as Record<string, unknown>
    let key: string | undefined
    while (open.index < open.keys.length && key === undefined) {
      const candidate = open.keys[open.index++]!
      const item = object[candidate]
      if (item !== undefined && typeof item !== 'function' && typeof item !== 'symbol') key = candidate
    }
    if (key === undefined) {
      out += '}'
      stack.pop()
      continue
    }
    if (open.written++ > 0) out += ','
    out += `${JSON.stringify(key)}:`
    write(object[key])
  }
  return out
}

/** True when `value` as one line of JSON fits in `max` characters (nothing would be cut). */
export function fitsOneLine(value: unknown, max: number): boolean {
  return jsonPrefix(value, max).length <= max
}

/** JSON on one line, cut to `max` characters with an ellipsis. */
export function oneLine(value: unknown, max = 80): string {
  return cut(jsonPrefix(value, max), max)
}

/**
 * A model's text answer on one line: newlines and quotes escaped as in JSON,
 * without the surrounding JSON quotes, cut to `max` characters.
 */
export function oneLineText(text: string, max = 80): string {
  return cut(JSON.stringify(text).slice(1, -1), max)
}

/** A run's status: green when it completed, cyan while it is being recorded, yellow when it was stopped, red when it failed. */
export function formatStatus(status: TraceStatus, c: Colors): string {
  switch (status) {
    case 'completed':
      return c.green(status)
    case 'active':
      return c.cyan(status)
    case 'cancelled':
    case 'interrupted':
      return c.yellow(status)
    case 'failed':
      return c.red(status)
  }
}

/** `70%`, `66.7%`: a share to a tenth of a percent. */
export function formatPercent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`
}

/** `1 turn`, `3 turns`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/** `12ms`, `1.2s`, `85µs`: durations at a glance. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)}µs`
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1).replace(/\.0$/, '') : Math.round(ms)}ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`
}
