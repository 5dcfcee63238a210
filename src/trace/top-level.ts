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

/** The fields before `turns` in `head`, the first bytes of the file. */
function fieldsBeforeTurns(head: Buffer): Record<string, unknown> | undefined {
  if (head[0] !== 0x7b /* { */) return undefined
  const at = head.indexOf(TURNS_KEY)
  if (at < 0) return undefined
  const before = head.toString('utf8', 1, at).replace(/,$/, '')
  return JSON.parse(`{${before}\n}`) as Record<string, unknown>
}

/** The fields after `turns` in `tail`, the last bytes of the file. */
function fieldsAfterTurns(tail: Buffer): Record<string, unknown> | undefined {
  // Searched from the end: the fields after the turns are a few hundred bytes.
  const at = tail.lastIndexOf(AFTER_TURNS)
  if (at < 0) return undefined
  // From the newline before "metadata" to the closing brace of the file.
  return JSON.parse(`{${tail.toString('utf8', at + TURNS_END)}`) as Record<string, unknown>
}

/**
 * The top-level fields from the head and tail of a trace file (its bytes),
 * or undefined when the file's layout does not allow it (or the parts are
 * not JSON). The result is not validated: see `validateTraceFields`.
 */
export function fieldsFromEnds(head: Buffer, tail: Buffer): Record<string, unknown> | undefined {
  try {
    const before = fieldsBeforeTurns(head)
    if (before === undefined) return undefined
    const after = fieldsAfterTurns(tail)
    return after === undefined ? undefined : { ...before, ...after }
  } catch {
    return undefined
  }
}

/**
 * Checks the top-level fields against the trace schema (the turns are not
 * looked at). Throws `TraceFormatError` naming `file`, as `validateTrace` does.
 */
export function validateTraceFields(fields: Record<string, unknown>, file: string): TraceFields {
  const { turns: _turns, ...rest } = validateTrace({ ...fields, turns: [] }, file)
  return rest
}
