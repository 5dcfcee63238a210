/**
 * The agent's reply in a conversation, as text: a string, or what the SDKs
 * hand back for a reply, so an agent can return its SDK's result as it is
 * (an OpenAI chat completion or its message, a Responses API response, an
 * Anthropic message, an AI SDK `generateText` result, a LangChain message,
 * a LangGraph state's last message). Anything else is a TypeError naming the
 * exchange: a reply the simulated user cannot read is the test's bug.
 */
import { describeReceived } from '../assert/received.js'

type Shape = Record<string, unknown>

function isObject(value: unknown): value is Shape {
  return value !== null && typeof value === 'object'
}

/** The text of a content array: its text parts joined (Anthropic blocks, LangChain and AI SDK parts). */
function textOfParts(parts: readonly unknown[]): string | undefined {
  const texts: string[] = []
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part)
    else if (isObject(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text)
  }
  return texts.length === 0 && parts.length > 0 ? undefined : texts.join('')
}

/** The text of a message-like value: `content` as a string or a list of parts. */
function textOfContent(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return textOfParts(content)
  return undefined
}

function textOf(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return value
  if (!isObject(value) || depth > 2) return undefined
  // OpenAI chat completion: its first choice's message.
  if (Array.isArray(value.choices)) {
    const first: unknown = value.choices[0]
    return isObject(first) ? textOf(first.message, depth + 1) : undefined
  }
  // OpenAI Responses API response.
  if (typeof value.output_text === 'string') return value.output_text
  // AI SDK generateText / streamText result (a getter on a class instance).
  if (typeof value.text === 'string' && !('content' in value && typeof value.content === 'string')) return value.text
  // LangGraph state: the last message is the agent's reply.
  if (Array.isArray(value.messages) && !('content' in value)) return textOf(value.messages.at(-1), depth + 1)
  // A chat message: OpenAI's, Anthropic's Message, LangChain's AIMessage.
  if ('content' in value) return textOfContent(value.content) ?? (value.content === null ? '' : undefined)
  return undefined
}

const ACCEPTED =
  'a string, or an SDK reply: an OpenAI chat completion or its message, a Responses API response, an Anthropic message, ' +
  'an AI SDK generateText result, a LangChain message or a LangGraph state with messages'

/** The text of the agent's reply in exchange `exchange` of conversation `name`; a TypeError for a value that has none. */
export function replyText(value: unknown, name: string, exchange: number): string {
  const text = textOf(value, 0)
  if (text !== undefined) return text
  throw new TypeError(`conversation "${name}", exchange ${exchange}: the agent must return its reply as ${ACCEPTED}; got ${describeReceived(value)}.`)
}
