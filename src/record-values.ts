/**
 * Reading what user code and adapters pass to the recorder, field by field,
 * without ever throwing because of a value: a getter that throws, a revoked
 * Proxy, a null-prototype object, a non-finite number are recorded with a
 * stand-in (and one warning per kind), so the log call goes on.
 */
import { textOf } from './trace/recorded-error.js'
import { copyIfPlain, NOT_PLAIN, toJsonValue, type ValueIssueHandler } from './trace/serialize.js'
import { normalizeTokenUsage } from './trace/tokens.js'
import type { JsonObject, JsonValue, Message, TokenUsage } from './trace/types.js'

/** A field that could not be read: its getter threw. Recorded as `[Thrown: message]`. */
export class Unreadable {
  readonly text: string
  constructor(error: unknown) {
    this.text = `[Thrown: ${messageOf(error)}]`
    unreadables.add(this)
  }
}

// Identity, not instanceof: instanceof reads a prototype, which a revoked Proxy refuses.
const unreadables = new WeakSet<object>()

export function isUnreadable(value: unknown): value is Unreadable {
  return typeof value === 'object' && value !== null && unreadables.has(value)
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error)
  } catch {
    return 'unknown error'
  }
}

/** `source[key]`, or an Unreadable (reported to `onIssue` at `at`) when reading it throws. */
export function readField(source: unknown, key: string, onIssue: ValueIssueHandler, at: string): unknown {
  if (source === null || (typeof source !== 'object' && typeof source !== 'function')) return undefined
  try {
    return (source as Record<string, unknown>)[key]
  } catch (error) {
    onIssue('throwing getter', at)
    return new Unreadable(error)
  }
}

/** Text, or null for null/undefined; anything else as its text, never throwing. */
export function optionalText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (isUnreadable(value)) return value.text
  return textOf(value)
}

/** A finite number at least `min`, else undefined (Infinity and NaN would make a file our loader rejects). */
export function finiteNumber(value: unknown, min: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? value : undefined
}

/** Token usage, normalised; an unreadable object becomes null with a warning. */
export function tokenUsageOf(raw: unknown, onIssue: ValueIssueHandler, at: string): TokenUsage | null {
  if (raw === null || raw === undefined || isUnreadable(raw)) return null
  try {
    return normalizeTokenUsage(raw, onIssue)
  } catch {
    onIssue('unreadable object', at)
    return null
  }
}

/** A value as JSON, the warning path only built when a stand-in is needed. */
export function jsonValueOf(raw: unknown, onIssue: ValueIssueHandler, at: string): JsonValue {
  if (raw === undefined) return null
  if (isUnreadable(raw)) return raw.text
  const value = copyIfPlain(raw)
  return value === NOT_PLAIN ? toJsonValue(raw, onIssue, at) : value
}

/**
 * Tool-call arguments as the trace keeps them: an object; a JSON string as
 * providers send it, parsed (kept raw under `_raw_arguments` when it is not
 * JSON); a bare value under `_value` (format "1" wants an object).
 */
export function argumentsOf(raw: unknown, onIssue: ValueIssueHandler, at: string): JsonObject {
  if (raw === undefined || raw === null) return {}
  if (typeof raw === 'string') {
    const text = raw
    if (text.trim() === '') return {}
    try {
      raw = JSON.parse(text)
    } catch {
      return { _raw_arguments: text }
    }
  }
  const value = jsonValueOf(raw, onIssue, at)
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
  return { _value: value }
}

/** The request's messages, each as `{ role, content }`. */
export function messagesOf(raw: readonly unknown[], onIssue: ValueIssueHandler, turn: number): Message[] {
  const out: Message[] = new Array(raw.length)
  for (let i = 0; i < raw.length; i++) {
    const at = `turns[${turn}].llm_call.messages[${i}]`
    let message: unknown
    try {
      message = raw[i]
    } catch (error) {
      onIssue('throwing getter', at)
      message = new Unreadable(error)
    }
    if (typeof message === 'string') out[i] = { role: 'user', content: message }
    else if (isUnreadable(message)) out[i] = { role: 'unknown', content: message.text }
    else if (message === null || typeof message !== 'object') out[i] = { role: 'unknown', content: toJsonValue(message, onIssue, at) }
    else {
      const role = readField(message, 'role', onIssue, `${at}.role`)
      const content = readField(message, 'content', onIssue, `${at}.content`)
      out[i] = { role: typeof role === 'string' ? role : isUnreadable(role) ? role.text : 'unknown', content: jsonValueOf(content, onIssue, `${at}.content`) }
    }
  }
  return out
}
