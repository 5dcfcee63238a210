/**
 * The item shapes the OpenAI Responses API and the Agents SDK (whose
 * protocol follows it) share: instructions and input items as the messages
 * a request sends, and the `output_text` parts of an output message.
 */

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
}

export interface InputMessage {
  role: string
  content: unknown
}

/**
 * The request's messages: `instructions` as the system message, then the
 * input (text as the user's message; items through `messageOf`, which
 * returns undefined for items that are not messages, such as reasoning).
 */
export function inputMessages(instructions: unknown, input: unknown, messageOf: (item: unknown) => InputMessage | undefined): InputMessage[] {
  const messages: InputMessage[] = []
  if (typeof instructions === 'string') messages.push({ role: 'system', content: instructions })
  if (typeof input === 'string') messages.push({ role: 'user', content: input })
  else if (Array.isArray(input)) {
    for (const item of input) {
      const message = messageOf(item)
      if (message !== undefined) messages.push(message)
    }
  }
  return messages
}

/** The texts of an output message's `output_text` parts, in order. */
export function outputTexts(content: unknown): string[] {
  if (!Array.isArray(content)) return []
  const texts: string[] = []
  for (const part of content) {
    const text = field(part, 'text')
    if (field(part, 'type') === 'output_text' && typeof text === 'string') texts.push(text)
  }
  return texts
}
