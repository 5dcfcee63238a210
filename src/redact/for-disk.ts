/**
 * The one entry point of every writer: traces, goldens, journals,
 * recordings, and the CLI's own writes (grades). What reaches the disk goes
 * through here; the in-memory values keep their secrets.
 */
import { checkNesting } from '../trace/depth.js'
import type { JsonValue } from '../trace/types.js'
import { resolveRedactPolicy, type RedactOption } from './policy.js'
import { redactValue } from './walk.js'

/**
 * `value` as it may be written to disk under the `redact` option (default:
 * the built-in rules; `false`: as it is). The input is never modified;
 * unchanged branches are shared with it. A value nested more than 1,000
 * levels deep is refused with the `TraceFormatError` (rule `depth`) the
 * reader gives for such a file; a malformed option is a TypeError.
 *
 * @example writeFileAtomic(path, stringifyTrace(redactForDisk(trace, options.redact)))
 */
export function redactForDisk<T>(value: T, option?: RedactOption): T {
  checkNesting(value)
  return redactForDiskUnchecked(value, option)
}

/**
 * `redactForDisk` without the nesting check, for a value whose depth is
 * known: checked once by an entry point (`saveTrace` writing a trace piece
 * by piece, `toOtlp`) or cut by the recorder.
 */
export function redactForDiskUnchecked<T>(value: T, option?: RedactOption): T {
  const policy = resolveRedactPolicy(option)
  return policy === undefined ? value : (redactValue(value as JsonValue, policy) as T)
}
