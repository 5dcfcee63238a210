/**
 * The id a set of tool definitions must get, worked out here independently
 * of the recorder: `ts_` and the first 12 hex digits of the SHA-256 of the
 * set's canonical JSON (sorted keys, the tools in the order given, which
 * the tests write sorted by kind then name).
 */
import { createHash } from 'node:crypto'
import stringify from 'fast-json-stable-stringify'

export function toolSetId(tools: readonly unknown[]): string {
  return `ts_${createHash('sha256').update(stringify(tools)).digest('hex').slice(0, 12)}`
}
