/**
 * The system prompt of a model call, as the adapters record it: the
 * `system` and `developer` messages of `llm_call.messages` (OpenAI's chat
 * messages as sent, the Responses API's `instructions`, Anthropic's `system`,
 * LangChain's SystemMessage, the AI SDK's system prompt), as one text.
 */
import stringify from 'fast-json-stable-stringify'
import type { JsonValue, Message } from '../trace/types.js'

const SYSTEM_ROLES: ReadonlySet<string> = new Set(['system', 'developer'])

/** A message's content as text: a string as it is, text parts by their text (one per line), anything else as JSON. */
function contentText(content: JsonValue): string {
  if (typeof content === 'string') return content
  if (content === null) return ''
  if (Array.isArray(content)) return content.map(partText).join('\n')
  return partText(content)
}

function partText(part: JsonValue): string {
  if (typeof part === 'string') return part
  if (part !== null && typeof part === 'object' && !Array.isArray(part) && typeof part['text'] === 'string') return part['text']
  try {
    return stringify(part)
  } catch {
    return String(part)
  }
}

/**
 * The call's system prompt: its system (and developer) messages' text, in
 * order, a blank line between two; `''` when it sent none; null when its
 * messages were not recorded (a golden older than the comparison, a call
 * logged without messages), which is never compared.
 */
export function systemPromptOf(messages: readonly Message[] | null | undefined): string | null {
  if (!Array.isArray(messages)) return null
  const texts: string[] = []
  for (const message of messages) {
    if (message !== null && typeof message === 'object' && SYSTEM_ROLES.has(message.role)) texts.push(contentText(message.content))
  }
  return texts.join('\n\n')
}
