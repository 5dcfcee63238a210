/**
 * A tool's output as the agent hands it back to the model, read back as the
 * value the tool returned. Agents stringify what their tools return, so text
 * holding a JSON object or array is parsed; any other text stays text
 * (reagent-flow 0.5's rule: a tool returning "42" is recorded as "42", by
 * every adapter, and both packages write the same trace).
 */

/**
 * The value of a tool's output: a string, or text parts (`{ type: 'text',
 * text }`, `input_text`, ...) joined with '', with a JSON object or array
 * parsed; anything else (images, documents, a value) as it is.
 *
 * @example toolOutputValue('{"temp":21}') // { temp: 21 }
 * @example toolOutputValue([{ type: 'text', text: '42' }]) // '42'
 */
export function toolOutputValue(content: unknown): unknown {
  const text = typeof content === 'string' ? content : joinedText(content)
  return text === undefined ? content : parseObjectOrArray(text)
}

/** The text of an array made only of text parts; undefined for anything else. */
function joinedText(content: unknown): string | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined
  let text = ''
  for (const part of content) {
    const piece: unknown = part !== null && typeof part === 'object' ? (part as { text?: unknown }).text : undefined
    if (typeof piece !== 'string') return undefined
    text += piece
  }
  return text
}

function parseObjectOrArray(text: string): unknown {
  const start = text.trimStart()[0]
  if (start !== '{' && start !== '[') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
