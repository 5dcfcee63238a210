/**
 * How deep a trace may nest, checked in one place. JSON.parse reads any
 * depth, but JSON.stringify, the golden normal form, the redaction walk and
 * every other recursive reader overflow the call stack a few thousand levels
 * down. So a value nested deeper than MAX_TRACE_DEPTH is refused where it
 * enters: a file when it is read (validate.ts), an in-memory value at the
 * public entry points (`diffTraces`, `matchGolden`, `saveTrace`,
 * `redactForDisk`, `toOtlp`), with the same `TraceFormatError`. Past those
 * checks every algorithm recurses plainly. Nothing reagent-flow writes comes
 * close: the recorder cuts values at 64 levels, and reagent-flow 0.5 cannot
 * write past Python's recursion limit (1,000).
 */
import { TraceFormatError } from '../errors/index.js'

export const MAX_TRACE_DEPTH = 1000
/** Segments of the path shown in the error: enough to find the field, not a thousand of them. */
const SHOWN_SEGMENTS = 8
// Grouped by hand: toLocaleString would load ICU's data at import, 6 ms of every test file's start.
const LIMIT_TEXT = String(MAX_TRACE_DEPTH).replace(/\B(?=(\d{3})+$)/g, ',')

/**
 * Message objects already searched, with the depth they were met at. An
 * in-memory trace holds each call's whole history, sharing the messages of
 * earlier calls by reference (messages.ts): each message object is searched
 * once (at the shallowest depth met), so the check stays linear in the size
 * of the file rather than quadratic in the length of the conversation.
 */
type SearchedMessages = Map<object, number>

/**
 * The path (as segments, reversed) of a container `limit` levels below
 * `value` (at `depth`), or undefined. Recursion is bounded by `limit`. Plain
 * functions, no object per search: V8 drops optimised code that refers to an
 * object dead at the next GC.
 */
function tooDeep(value: object, depth: number, limit: number, messages: SearchedMessages | undefined): Array<string | number> | undefined {
  if (depth >= limit) return []
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      if (item === null || typeof item !== 'object') continue
      if (messages !== undefined) {
        const before = messages.get(item)
        if (before !== undefined && before <= depth) continue
        messages.set(item, depth)
      }
      const below = tooDeep(item, depth + 1, limit, undefined)
      if (below !== undefined) {
        below.push(i)
        return below
      }
    }
    return undefined
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (item === null || typeof item !== 'object') continue
    const below = key === 'messages' ? tooDeepMessages(item, depth + 1, limit) : tooDeep(item, depth + 1, limit, undefined)
    if (below !== undefined) {
      below.push(key)
      return below
    }
  }
  return undefined
}

/** `tooDeep` of a `messages` list: each message object once per search (see SearchedMessages). */
let searched: SearchedMessages | undefined
function tooDeepMessages(list: object, depth: number, limit: number): Array<string | number> | undefined {
  if (!Array.isArray(list)) return tooDeep(list, depth, limit, undefined)
  return tooDeep(list, depth, limit, (searched ??= new Map()))
}

/** `segments` as a JSON path (`turns[0].result[0]`), cut after a few segments. */
function pathText(segments: ReadonlyArray<string | number>): string {
  let path = ''
  for (const segment of segments.slice(0, SHOWN_SEGMENTS)) {
    if (typeof segment === 'number') path += `[${segment}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`
    else path += `[${JSON.stringify(segment)}]`
  }
  return path
}

/**
 * How many levels of containers `value` holds (0 for a string, number, ...;
 * 1 for `[]`), or undefined when more than `limit`. Recursion is bounded by
 * `limit`.
 */
export function nestingWithin(value: unknown, limit: number): number | undefined {
  if (value === null || typeof value !== 'object') return 0
  if (limit === 0) return undefined
  let deepest = 0
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const below = nestingWithin(value[i], limit - 1)
      if (below === undefined) return undefined
      if (below > deepest) deepest = below
    }
  } else {
    for (const key in value) {
      const below = nestingWithin((value as Record<string, unknown>)[key], limit - 1)
      if (below === undefined) return undefined
      if (below > deepest) deepest = below
    }
  }
  return deepest + 1
}

/**
 * Traces known to nest within MAX_TRACE_DEPTH: checked once (by the reader or
 * a public entry point), or recorded by a session, whose recorder cuts every
 * logged value at 64 levels. Checked once means once per trace object: a
 * `diffTraces` of two loaded traces, or of a session's trace against its
 * golden, walks neither again. (A trace deepened by hand after its check is
 * not looked at again; nothing reagent-flow does deepens one.)
 */
const withinDepth = new WeakSet<object>()

/** Marks `trace` as known to nest within MAX_TRACE_DEPTH (a session's trace: its recorder cuts values at 64 levels). */
export function markWithinDepth(trace: object): void {
  withinDepth.add(trace)
}

/**
 * Throws a `TraceFormatError` (rule `depth`, naming `file` and where) when
 * `value` nests deeper than MAX_TRACE_DEPTH: what the reader says of such a
 * file, and the public entry points of such an in-memory value.
 */
export function checkNesting(value: unknown, file = '<value>'): void {
  if (value === null || typeof value !== 'object' || withinDepth.has(value)) return
  let reversed: Array<string | number> | undefined
  try {
    reversed = tooDeep(value, 0, MAX_TRACE_DEPTH, undefined)
  } finally {
    searched = undefined
  }
  if (reversed === undefined) {
    withinDepth.add(value)
    return
  }
  throw new TraceFormatError(file, pathText(reversed.reverse()), 'depth', `nests more than ${LIMIT_TEXT} levels deep; reagent-flow reads at most ${LIMIT_TEXT}`)
}
