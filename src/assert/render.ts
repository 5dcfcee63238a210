/**
 * Values in assertion messages: JSON with a space after `,` and `:` (it reads
 * like prose, and is still JSON), asymmetric matchers as vitest prints them
 * (`StringContaining "refund"`, `Any<Number>`), never a throw.
 */
import { isAsymmetricMatcher } from './equality.js'

function renderMatcher(matcher: object, seen: Set<object>): string {
  const described = (matcher as { toAsymmetricMatcher?: () => unknown }).toAsymmetricMatcher
  if (typeof described === 'function') return String(described.call(matcher))
  const name = String(matcher)
  return 'sample' in matcher ? `${name} ${renderIn((matcher as { sample: unknown }).sample, seen)}` : name
}

function renderIn(value: unknown, seen: Set<object>): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : String(value)
  if (typeof value === 'function') return isAsymmetricMatcher(value) ? renderMatcher(value, seen) : `[Function ${value.name || 'anonymous'}]`
  if (typeof value === 'symbol') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (seen.has(value)) return '[Circular]'
  if (isAsymmetricMatcher(value)) return renderMatcher(value, seen)
  if (value instanceof RegExp) return String(value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : JSON.stringify(value.toISOString())
  seen.add(value)
  try {
    if (Array.isArray(value)) return `[${value.map((item) => renderIn(item, seen)).join(', ')}]`
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${renderIn(item, seen)}`)
    return `{${entries.join(', ')}}`
  } finally {
    seen.delete(value)
  }
}

/** One line: `{"order_id": "42", "amount": Any<Number>}`. */
export function render(value: unknown): string {
  try {
    return renderIn(value, new Set())
  } catch (error) {
    return `[Unrenderable: ${error instanceof Error ? error.message : String(error)}]`
  }
}

/**
 * Two numbers with the fewest decimals (at least `min`, at most 10) that tell
 * them apart, so a message never reads "1000ms exceeds limit of 1000ms".
 */
export function formatApart(a: number, b: number, min = 0): [string, string] {
  for (let digits = min; digits < 10; digits++) {
    if (a.toFixed(digits) !== b.toFixed(digits)) return [a.toFixed(digits), b.toFixed(digits)]
  }
  return [a.toFixed(10), b.toFixed(10)]
}
