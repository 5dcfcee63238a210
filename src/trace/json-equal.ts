/**
 * The one deep equality of JSON values: the diff, golden matching and the
 * message sharing of trace files (messages.ts) all ask it. Plain recursion:
 * every value reaching it nests at most MAX_TRACE_DEPTH levels (depth.ts
 * checks files when read and in-memory values at the public entry points;
 * the recorder cuts values at 64 levels).
 */
import type { JsonValue } from './types.js'

/** True when the two values are equal as JSON: arrays item by item, objects key by key whatever the key order. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  // Counting keys instead of building key lists: comparing two equal 10,000-turn traces allocates nothing.
  let count = 0
  for (const key in a) {
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false
    count++
  }
  for (const _ in b) count--
  return count === 0
}
