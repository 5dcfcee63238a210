/**
 * Reading what user code and adapters pass to the recorder, field by field,
 * without ever throwing because of a value: a getter that throws, a revoked
 * Proxy, a null-prototype object, a non-finite number are recorded with a
 * stand-in (and one warning per kind), so the log call goes on.
 */
import { textOf } from '../trace/recorded-error.js'
import { copyIfPlain, NOT_PLAIN, toJsonValue, type ValueIssueHandler } from '../trace/serialize.js'
import { normalizeTokenUsage } from '../trace/tokens.js'
import type { JsonObject, JsonValue, Message, TokenUsage } from '../trace/types.js'

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

/**
 * Where in the trace the value being read goes, kept by the recorder and
 * updated as it reads (no string is built unless an issue needs the path:
 * logging a turn must stay cheap).
 */
export class Cursor {
  turn = 0
  /** The tool call being read, or -1 for the LLM call itself. */
  call = -1
  /** The tool whose result is being read, or '' while an LLM call is. */
  tool = ''

  /** `turns[3].llm_call.tool_calls[0].arguments`, `result of "search".error`. */
  path(field: string): string {
    const base =
      this.tool !== '' ? `result of ${JSON.stringify(this.tool)}` : `turns[${this.turn}].llm_call${this.call >= 0 ? `.tool_calls[${this.call}]` : ''}`
    return field === '' ? base : `${base}.${field}`
  }

  at(turn: number, call: number, tool: string): this {
    this.turn = turn
    this.call = call
    this.tool = tool
    return this
  }
}

/** `source[key]`, or an Unreadable (reported to `onIssue` at the cursor's `key`) when reading it throws. */
export function readField(source: unknown, key: string, onIssue: ValueIssueHandler, where: Cursor): unknown {
  if (source === null || (typeof source !== 'object' && typeof source !== 'function')) return undefined
  try {
    return (source as Record<string, unknown>)[key]
  } catch (error) {
    onIssue('throwing getter', where.path(key))
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
export function tokenUsageOf(raw: unknown, onIssue: ValueIssueHandler, where: Cursor): TokenUsage | null {
  if (raw === null || raw === undefined || isUnreadable(raw)) return null
  try {
    return normalizeTokenUsage(raw, onIssue)
  } catch {
    onIssue('unreadable object', where.path('token_usage'))
    return null
  }
}

/** A value as JSON, the warning path only built when a stand-in is needed. */
export function jsonValueOf(raw: unknown, onIssue: ValueIssueHandler, where: Cursor, field: string): JsonValue {
  if (raw === undefined) return null
  if (isUnreadable(raw)) return raw.text
  const value = copyIfPlain(raw)
  return value === NOT_PLAIN ? toJsonValue(raw, onIssue, where.path(field)) : value
}

/**
 * Tool-call arguments as the trace keeps them: an object; a JSON string as
 * providers send it, parsed (kept raw under `_raw_arguments` when it is not
 * JSON); a bare value under `_value` (format "1" wants an object).
 */
export function argumentsOf(raw: unknown, onIssue: ValueIssueHandler, where: Cursor): JsonObject {
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
  const value = jsonValueOf(raw, onIssue, where, 'arguments')
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
  return { _value: value }
}

/** The request's messages, each as `{ role, content }`. */
export function messagesOf(raw: readonly unknown[], onIssue: ValueIssueHandler, where: Cursor): Message[] {
  const out: Message[] = new Array(raw.length)
  // Messages are rare enough (adapters only) to build their paths as they go.
  const cursor = new Cursor().at(where.turn, -1, '')
  for (let i = 0; i < raw.length; i++) {
    const at = cursor.path(`messages[${i}]`)
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
      const role = readField(message, 'role', onIssue, cursor)
      const content = readField(message, 'content', onIssue, cursor)
      out[i] = {
        role: typeof role === 'string' ? role : isUnreadable(role) ? role.text : 'unknown',
        content: jsonValueOf(content, onIssue, cursor, `messages[${i}].content`),
      }
    }
  }
  return out
}
