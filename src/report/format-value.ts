/** Short, single-line renderings of recorded values for terminal reports. */
import type { TraceStatus } from '../trace/types.js'
import type { Colors } from './colors.js'

/** Cuts `text` to `max` characters, the last one an ellipsis when something was cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** JSON on one line, cut to `max` characters with an ellipsis. */
export function oneLine(value: unknown, max = 80): string {
  let text: string
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return cut(text, max)
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
