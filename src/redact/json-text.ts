/**
 * JSON text inside a string value: a tool output returned as text, tool
 * arguments as the model sent them, a request body. Such a string is parsed
 * and redacted as structure (so `'{"password": "…"}'` loses its password like
 * an object would), then written back in the style it came in: compact,
 * Python's `", "`/`": "` separators, or indented, ASCII-only when it was.
 */
import type { JsonValue } from '../trace/types.js'

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13
}

/** The text without its surrounding whitespace starts with `{` and ends with `}` (or `[` and `]`). */
export function looksLikeJsonContainer(text: string): boolean {
  let start = 0
  let end = text.length - 1
  while (start <= end && isSpace(text.charCodeAt(start))) start++
  while (end > start && isSpace(text.charCodeAt(end))) end--
  const open = text.charCodeAt(start)
  const close = text.charCodeAt(end)
  return end > start && ((open === 123 && close === 125) || (open === 91 && close === 93))
}

/** The object or array `text` holds, or undefined when it is not JSON. */
export function parseJsonContainer(text: string): JsonValue | undefined {
  try {
    const value = JSON.parse(text) as JsonValue
    return value !== null && typeof value === 'object' ? value : undefined
  } catch {
    return undefined
  }
}

interface Style {
  indent: string | undefined
  lineBreak: string
  /** `", "` and `": "` between items, as Python's json.dumps writes by default. */
  spaced: boolean
  asciiOnly: boolean
}

/** How `text` was written: indentation, separators, escapes. Read outside string literals only. */
function styleOf(text: string): Style {
  let indent: string | undefined
  let lineBreak = '\n'
  let spaced = false
  let asciiOnly = true
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 127) asciiOnly = false
    if (inString) {
      if (code === 92) i++
      else if (code === 34) inString = false
      continue
    }
    if (code === 34) inString = true
    else if ((code === 44 || code === 58) && text.charCodeAt(i + 1) === 32) spaced = true
    else if (code === 10 && indent === undefined) {
      if (text.charCodeAt(i - 1) === 13) lineBreak = '\r\n'
      let end = i + 1
      while (end < text.length && (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9)) end++
      if (end > i + 1) indent = text.slice(i + 1, end)
    }
  }
  return { indent, lineBreak, spaced, asciiOnly }
}

/** Compact JSON with a space after every `,` and `:` outside strings. */
function withSpaces(compact: string): string {
  let out = ''
  let from = 0
  let inString = false
  for (let i = 0; i < compact.length; i++) {
    const code = compact.charCodeAt(i)
    if (inString) {
      if (code === 92) i++
      else if (code === 34) inString = false
    } else if (code === 34) {
      inString = true
    } else if (code === 44 || code === 58) {
      out += `${compact.slice(from, i + 1)} `
      from = i + 1
    }
  }
  return out + compact.slice(from)
}

const NON_ASCII = /[\u007f-\uffff]/g

/** `value` as JSON text in the style of `original` (which it was parsed from), its surrounding whitespace kept. */
export function stringifyLike(original: string, value: JsonValue): string {
  const style = styleOf(original)
  let text = style.indent !== undefined ? JSON.stringify(value, null, style.indent) : style.spaced ? withSpaces(JSON.stringify(value)) : JSON.stringify(value)
  if (style.lineBreak !== '\n') text = text.replace(/\n/g, style.lineBreak)
  if (style.asciiOnly) text = text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const lead = original.length - original.trimStart().length
  const trail = original.length - original.trimEnd().length
  return original.slice(0, lead) + text + original.slice(original.length - trail)
}
