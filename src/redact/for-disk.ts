/**
 * The one entry point of every writer: traces, goldens, journals,
 * recordings, and the CLI's own writes (grades). What reaches the disk goes
 * through here; the in-memory values keep their secrets.
 */
import type { JsonValue } from '../trace/types.js'
import { resolveRedactPolicy, type RedactOption } from './policy.js'
import { redactValue } from './walk.js'

/**
 * `value` as it may be written to disk under the `redact` option (default:
 * the built-in rules; `false`: as it is). The input is never modified;
 * unchanged branches are shared with it. Never throws on any JSON value,
 * however deep or large; throws a TypeError for a malformed option.
 *
 * @example writeFileAtomic(path, stringifyTrace(redactForDisk(trace, options.redact)))
 */
export function redactForDisk<T>(value: T, option?: RedactOption): T {
  const policy = resolveRedactPolicy(option)
  return policy === undefined ? value : (redactValue(value as JsonValue, policy) as T)
}
