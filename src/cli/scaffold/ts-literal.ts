/**
 * JSON values as TypeScript a person reads and a formatter leaves alone:
 * single-quoted strings, bare keys where they are identifiers, trailing
 * commas, and an object or array on one line when it fits, else one entry
 * per line.
 */
import type { JsonValue } from '../../trace/types.js'

/** The width a line may take before an object or array is broken over lines (biome's and prettier's common 100-160; the shorter reads better in review). */
const LINE_WIDTH = 120

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** `text` as a single-quoted TypeScript string. */
export function tsString(text: string): string {
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")
  return `'${body}'`
}

function tsKey(key: string): string {
  return IDENTIFIER.test(key) ? key : tsString(key)
}

function oneLine(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? tsString(value) : JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`
  const entries = Object.entries(value).map(([key, item]) => `${tsKey(key)}: ${oneLine(item)}`)
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
}

/**
 * `value` as a TypeScript expression for a line indented by `indent`, after
 * `before` characters of that line (a key, `const x = `): its first line is
 * not indented, the lines it breaks into are.
 */
export function tsLiteral(value: JsonValue, indent = 0, before = 0): string {
  const flat = oneLine(value)
  // The comma or bracket after it counts too.
  if (value === null || typeof value !== 'object' || indent + before + flat.length + 1 <= LINE_WIDTH) return flat
  const inner = ' '.repeat(indent + 2)
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${tsLiteral(item, indent + 2)},`)
    : Object.entries(value).map(([key, item]) => `${inner}${tsKey(key)}: ${tsLiteral(item, indent + 2, tsKey(key).length + 2)},`)
  if (lines.length === 0) return flat
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${lines.join('\n')}\n${' '.repeat(indent)}${close}`
}
