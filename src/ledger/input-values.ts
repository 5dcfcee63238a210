/**
 * What a body may hold for the ledger to keep it and read it back after a
 * restart, on either store: checked before anything else reads the body (the
 * schema, redaction, a store), without recursion, so no depth overflows the
 * stack. A body breaking a rule is a 422 naming the field at fault:
 *
 * - `depth`: run operations' fields nest at most MAX_FIELD_DEPTH levels (as
 *   deep as the recorder keeps a value); trace.put's trace is checked against
 *   the depth every trace reader takes (MAX_TRACE_DEPTH) by its own check.
 * - `unicode`: strings (values and keys) are well-formed Unicode: a lone
 *   surrogate (`\ud800`) has no UTF-8 form, so no file name, file or
 *   PostgreSQL row can keep it apart from another one.
 * - `nul`: no U+0000 in run operations' strings: PostgreSQL's text and jsonb cannot hold it.
 * - `finite`: numbers are finite (`1e400` parses as Infinity, which JSON cannot write back).
 */
import { MAX_TRACE_DEPTH } from '../trace/depth.js'
import { toJsonPath } from '../trace/validate.js'
import { LedgerRequestError } from './errors.js'
import type { OperationName } from './input-schemas.js'

/** How deep a field of run.begin, run.complete, run.grade, run.get or run.list may nest: as deep as the recorder keeps a value. */
export const MAX_FIELD_DEPTH = 64
/** Path segments named in a depth error: enough to find the field. */
const SHOWN_SEGMENTS = 8

const LONE_SURROGATE = /[\uD800-\uDFFF]/u

interface Pending {
  value: unknown
  /** JSON pointer segments, escaped. */
  path: string[]
}

const escapeSegment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

function refuse(operation: string, path: readonly string[], rule: string, text: string): never {
  const field = toJsonPath(`/${path.join('/')}`)
  throw new LedgerRequestError('invalid_input', `${operation}: ${field} ${text} (rule: ${rule})`, { field, rule })
}

function checkString(operation: string, text: string, path: readonly string[], nulAllowed: boolean, what: string): void {
  if (LONE_SURROGATE.test(text)) {
    refuse(operation, path, 'unicode', `${what} a lone surrogate (an unpaired \\ud800-\\udfff escape): send well-formed Unicode text`)
  }
  if (!nulAllowed && text.includes('\u0000')) refuse(operation, path, 'nul', `${what} a NUL character (\\u0000), which the ledger cannot store`)
}

/** Throws a 422 for the first value of `body` the ledger could not keep and read back. */
export function checkValues(operation: OperationName, body: Record<string, unknown>): void {
  const isTrace = operation === 'trace.put'
  const maxDepth = isTrace ? MAX_TRACE_DEPTH : MAX_FIELD_DEPTH
  const stack: Pending[] = Object.keys(body).map((key) => ({ value: body[key], path: [escapeSegment(key)] }))
  for (const key of Object.keys(body)) checkString(operation, key, [escapeSegment(key)], isTrace, 'has a key with')
  while (stack.length > 0) {
    const { value, path } = stack.pop()!
    if (typeof value === 'string') checkString(operation, value, path, isTrace, 'holds')
    else if (typeof value === 'number' && !Number.isFinite(value)) refuse(operation, path, 'finite', 'must be a finite number (JSON has no Infinity)')
    else if (value !== null && typeof value === 'object') {
      if (path.length > maxDepth) {
        const shown = path.slice(0, SHOWN_SEGMENTS)
        const field = path[0]!
        const where = toJsonPath(`/${shown.join('/')}`)
        throw new LedgerRequestError(
          'invalid_input',
          `${operation}: ${toJsonPath(`/${field}`)} nests deeper than ${maxDepth} levels (at ${where}…); the ledger keeps values at most ${maxDepth} levels deep (rule: depth)`,
          { field: toJsonPath(`/${field}`), rule: 'depth' },
        )
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, String(i)] })
      } else {
        for (const key of Object.keys(value)) {
          const at = [...path, escapeSegment(key)]
          checkString(operation, key, at, isTrace, 'has a key with')
          stack.push({ value: (value as Record<string, unknown>)[key], path: at })
        }
      }
    }
  }
}
