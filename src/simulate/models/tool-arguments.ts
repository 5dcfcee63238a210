/**
 * A tool call's arguments as a model wrote them (JSON text, or an object the
 * SDK already parsed), read into the object `ModelAnswer` holds. Arguments
 * that are not a JSON object are kept as the model wrote them
 * (`rawArguments`), never thrown: what a simulation does with a malformed
 * answer (ask again, fail the tool call) is its own decision.
 */
import type { JsonObject } from '../../trace/types.js'
import type { ModelToolCall } from '../model-types.js'

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** `text` parsed (the empty text, which some providers send for a call with no arguments, is `{}`). */
export function toolCallOf(name: string, text: string): ModelToolCall {
  if (text.trim() === '') return { name, arguments: {} }
  try {
    const parsed: unknown = JSON.parse(text)
    if (isObject(parsed)) return { name, arguments: parsed }
  } catch {
    // Kept as written, below.
  }
  return { name, arguments: {}, rawArguments: text }
}

/** Arguments the SDK parsed already (Anthropic's `input`, LangChain's `args`). */
export function parsedToolCallOf(name: string, value: unknown): ModelToolCall {
  if (isObject(value)) return { name, arguments: value }
  return { name, arguments: {}, rawArguments: typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)) }
}
