/**
 * Messages between the trace's form (`{ role, content }`, content as the
 * provider sent it) and the GenAI conventions' JSON message form
 * (`gen_ai.input.messages`, `gen_ai.output.messages`: `{ role, parts: [...] }`
 * with `text`, `tool_call`, `tool_call_response` parts). Content that is not
 * text is kept whole in one part of reagent-flow's own type, so a trace that
 * goes out and comes back keeps every message as it was.
 */
import type { LlmCall, Message } from '../trace/types.js'

const OWN_PART = 'reagent_flow.content'

interface Part {
  type: string
  [key: string]: unknown
}

interface GenAiMessage {
  role: string
  parts: Part[]
  finish_reason?: string
}

function partsOf(content: unknown): Part[] {
  if (content === null || content === undefined) return []
  if (typeof content === 'string') return [{ type: 'text', content }]
  return [{ type: OWN_PART, content }]
}

/** The request's messages as `gen_ai.input.messages`. */
export function inputMessagesOf(messages: readonly Message[]): string {
  return JSON.stringify(messages.map((message): GenAiMessage => ({ role: message.role, parts: partsOf(message.content) })))
}

/** The response (text, then tool calls) as `gen_ai.output.messages`. */
export function outputMessagesOf(call: LlmCall): string {
  const parts = partsOf(call.response_text)
  for (const toolCall of call.tool_calls) parts.push({ type: 'tool_call', id: toolCall.call_id, name: toolCall.name, arguments: toolCall.arguments })
  const message: GenAiMessage = { role: 'assistant', parts }
  if (call.stop_reason !== undefined) message.finish_reason = call.stop_reason
  return JSON.stringify([message])
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
}

/** A JSON text (or an already structured value) as a list; undefined when it is not one. */
function listOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value
  if (typeof value !== 'string') return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The content of a message's parts, read back: text joined, one part of ours unwrapped, a tool response's value, else the parts. */
function contentOf(parts: unknown): unknown {
  if (!Array.isArray(parts) || parts.length === 0) return null
  if (parts.length === 1 && field(parts[0], 'type') === OWN_PART) return field(parts[0], 'content') ?? null
  if (parts.length === 1 && field(parts[0], 'type') === 'tool_call_response') return field(parts[0], 'response') ?? null
  const texts = parts.map((part) => (field(part, 'type') === 'text' ? field(part, 'content') : undefined))
  if (texts.every((text): text is string => typeof text === 'string')) return texts.join('')
  if (parts.every((part) => field(part, 'type') === 'tool_call')) return null
  return parts
}

/** `gen_ai.input.messages` (and `gen_ai.system_instructions`, when the messages hold no system message) as trace messages; null when absent. */
export function messagesFromGenAi(input: unknown, systemInstructions?: unknown): Message[] | null {
  const list = listOf(input)
  if (list === undefined) return null
  const messages = list.map(
    (message): Message => ({ role: String(field(message, 'role') ?? 'unknown'), content: contentOf(field(message, 'parts')) as Message['content'] }),
  )
  const system = listOf(systemInstructions)
  if (system !== undefined && !messages.some((message) => message.role === 'system'))
    messages.unshift({ role: 'system', content: contentOf(system) as Message['content'] })
  return messages
}

export interface GenAiOutput {
  responseText: string | null
  toolCalls: Array<{ name: string; arguments?: unknown; callId?: string }>
  finishReason: string | null
}

/** `gen_ai.output.messages`: the text parts, the tool calls, the finish reason; undefined when absent. */
export function outputFromGenAi(output: unknown): GenAiOutput | undefined {
  const list = listOf(output)
  if (list === undefined) return undefined
  const texts: string[] = []
  const toolCalls: GenAiOutput['toolCalls'] = []
  let finishReason: string | null = null
  for (const message of list) {
    const reason = field(message, 'finish_reason')
    if (typeof reason === 'string') finishReason ??= reason
    const parts = field(message, 'parts')
    for (const part of Array.isArray(parts) ? parts : []) {
      const type = field(part, 'type')
      const content = field(part, 'content')
      if (type === 'text' && typeof content === 'string') texts.push(content)
      else if (type === OWN_PART && typeof content === 'string') texts.push(content)
      else if (type === 'tool_call') {
        const id = field(part, 'id')
        toolCalls.push({
          name: String(field(part, 'name') ?? 'unknown'),
          arguments: field(part, 'arguments'),
          ...(typeof id === 'string' ? { callId: id } : {}),
        })
      }
    }
  }
  return { responseText: texts.length === 0 ? null : texts.join(''), toolCalls, finishReason }
}
