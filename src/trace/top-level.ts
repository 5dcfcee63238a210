/**
 * The top-level fields of a trace (everything but `turns`) from the first and
 * last bytes of its file, so that a directory of 10,000 traces can be listed
 * without parsing every turn of every file.
 *
 * It works on the layout both writers produce (ours and reagent-flow 0.5's
 * `json.dump(indent=2)`): 2-space indent, `trace_id` and `name` before
 * `turns`, `metadata` right after it. A raw newline cannot occur inside a
 * JSON string, so a line that starts with exactly two spaces and a quote is a
 * top-level key, wherever it is in the file. Any other layout gets
 * `undefined`, and the caller parses the whole file instead.
 */
import type { Trace } from './types.js'
import { validateTrace } from './validate.js'

/** The named keys of `T`, without its index signature (which `Omit` would keep alone). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] }

/** A trace without its turns: what listing a directory needs. */
export type TraceFields = Pick<Trace, Exclude<KnownKeys<Trace>, 'turns'>>

const TURNS_KEY = Buffer.from('\n  "turns": [')
const AFTER_TURNS = Buffer.from('\n  ],\n  "metadata": ')
const TURNS_END = '\n  ],'.length

/** The text of the fields before `turns` in `head`, the first bytes of the file, without braces. */
function textBeforeTurns(head: Buffer): string | undefined {
  if (head[0] !== 0x7b /* { */) return undefined
  const at = head.indexOf(TURNS_KEY)
  return at < 0 ? undefined : head.toString('utf8', 1, at).replace(/,$/, '')
}

/** The text of the fields after `turns` in `tail`, the last bytes of the file, with the closing brace. */
function textAfterTurns(tail: Buffer): string | undefined {
  // Searched from the end: the fields after the turns are a few hundred bytes.
  const at = tail.lastIndexOf(AFTER_TURNS)
  // From the newline before "metadata" to the closing brace of the file.
  return at < 0 ? undefined : tail.toString('utf8', at + TURNS_END)
}

/**
 * The top-level fields from the head and tail of a trace file (its bytes),
 * with `turns` empty, or undefined when the file's layout does not allow it
 * (or the parts are not JSON). Not validated: see `validateTraceFields`.
 */
export function fieldsFromEnds(head: Buffer, tail: Buffer): Record<string, unknown> | undefined {
  const before = textBeforeTurns(head)
  const after = before === undefined ? undefined : textAfterTurns(tail)
  if (after === undefined) return undefined
  try {
    // One parse of one object: merging two parsed objects cost more than both parses.
    return JSON.parse(`{${before}${before === '' ? '' : ','}\n  "turns": [],${after}`) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/**
 * Checks the top-level fields `fieldsFromEnds` gave (their turns empty, so
 * not looked at) against the trace schema, and returns them without `turns`.
 * Throws `TraceFormatError` naming `file`, as `validateTrace` does.
 */
export function validateTraceFields(fields: Record<string, unknown>, file: string): TraceFields {
  validateTrace(fields, file)
  delete fields.turns
  return fields as unknown as TraceFields
}
