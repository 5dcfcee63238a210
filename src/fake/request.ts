/**
 * Building blocks of the provider-neutral request: every SDK's messages come
 * down to text, tool calls with parsed arguments, and tool results by call id.
 */
import type { ScriptMessage, ScriptTool } from './types.js'

/** The text of a message content: a string as it is, text parts joined, nothing for other parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content === null || content === undefined ? '' : JSON.stringify(content)
  return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
}

/** Tool-call arguments as a value: JSON text parsed, kept as the raw string when it is not JSON. */
export function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {}
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}

/** A tool with only the fields that were given. */
export function scriptTool(name: string, description: unknown, parameters: unknown): ScriptTool {
  return {
    name,
    ...(typeof description === 'string' ? { description } : {}),
    ...(parameters === undefined || parameters === null ? {} : { parameters }),
  }
}

/** A tool message, named after the call it answers when an earlier assistant message made that call. */
export function withToolNames(messages: ScriptMessage[]): ScriptMessage[] {
  const names = new Map<string, string>()
  return messages.map((message) => {
    if (message.role === 'assistant') for (const call of message.toolCalls) names.set(call.id, call.name)
    if (message.role !== 'tool' || message.name !== undefined) return message
    const name = names.get(message.toolCallId)
    return name === undefined ? message : { ...message, name }
  })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `value` when it is an array, else an empty one: SDK bodies leave lists out when they are empty. */
export function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

/** `value` when it is a string, else `fallback`. */
export function stringOr<T>(value: unknown, fallback: T): string | T {
  return typeof value === 'string' ? value : fallback
}
