/**
 * Reading tool output out of Anthropic content: a `tool_result` block the
 * agent sends back, or a server tool's result block in a response. Content is
 * a string or an array of blocks; text that holds JSON is recorded as the
 * value it encodes, since that is what the tool returned before the agent
 * stringified it.
 */

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string'
}

/** `'{"a":1}'` -> `{ a: 1 }`; text that is not JSON stays text. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The value a `tool_result` carries: its string (JSON parsed where possible),
 * the text of a single text block (likewise), or the blocks as they are
 * (images, documents, several texts).
 */
export function toolResultValue(content: unknown): unknown {
  if (typeof content === 'string') return parseJsonText(content)
  if (Array.isArray(content) && content.length === 1 && isTextBlock(content[0])) return parseJsonText(content[0].text)
  return content ?? null
}

/** The text of content (a string, or the text blocks joined by newlines); '' when it has none. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter(isTextBlock)
    .map((block) => block.text)
    .join('\n')
}
