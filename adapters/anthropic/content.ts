/**
 * The text of Anthropic content (a `tool_result` block the agent sends back,
 * a server tool's result block): a string or an array of blocks. The value of
 * a tool's output is read by adapter-support's `toolOutputValue`.
 */

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string'
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
