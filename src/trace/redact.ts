/**
 * Secret redaction for what is written to disk. The in-memory trace is never
 * touched: a test can still assert on the real values.
 *
 * Two mechanisms: keys whose name matches are written as "[REDACTED]" at any
 * depth, and string values that contain a secret-shaped substring get that
 * substring replaced. The defaults cover the shapes that leak most often from
 * agent code (provider API keys, bearer tokens, credential headers).
 */

import type { JsonValue } from './types.js'

export const REDACTED = '[REDACTED]'

/**
 * `false` turns all redaction off. A list adds key names (strings, compared
 * case-insensitively ignoring `-` and `_`) or key patterns (RegExps) to the
 * defaults. The object form also takes value patterns and can drop the defaults.
 */
export type RedactOption =
  | false
  | ReadonlyArray<string | RegExp>
  | {
      /** Key names or patterns whose values are replaced as a whole. */
      keys?: ReadonlyArray<string | RegExp>
      /** Patterns for secrets inside string values; each match is replaced. */
      values?: readonly RegExp[]
      /** Keep the built-in keys and value patterns. Default: true. */
      defaults?: boolean
    }

/** Key names redacted by default (normalised: lower case, no `-` or `_`). */
export const DEFAULT_SECRET_KEYS: readonly string[] = [
  'authorization',
  'proxyauthorization',
  'apikey',
  'xapikey',
  'apitoken',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'accesstoken',
  'refreshtoken',
  'privatekey',
  'cookie',
  'setcookie',
]

/**
 * Default secret shapes: `pattern` replaces the secret inside a string;
 * `scan` finds, in a whole serialized trace, whether one may be there. They
 * differ only where the pattern is slow to search a large text with (a
 * lookbehind defeats V8's literal search); then the literal it starts with is
 * enough to decide whether to walk.
 */
const DEFAULT_VALUE_RULES: ReadonlyArray<{ pattern: RegExp; scan: RegExp }> = [
  rule(/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g), // OpenAI and Anthropic API keys
  rule(/(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, /\bBearer\s/i), // bearer tokens, the scheme word stays
  rule(/\bAKIA[0-9A-Z]{16}\b/g), // AWS access key ids
  rule(/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g), // GitHub tokens
  rule(/\bxox[abprs]-[A-Za-z0-9-]{10,}/g), // Slack tokens
  rule(/\bAIza[0-9A-Za-z_-]{35}\b/g), // Google API keys
]

function rule(pattern: RegExp, scan: RegExp = withoutGlobal(pattern)): { pattern: RegExp; scan: RegExp } {
  return { pattern, scan }
}

/** The same pattern without `g`: `test()` on a global regex moves its lastIndex. */
function withoutGlobal(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.replace('g', ''))
}

/** Secret shapes redacted inside any string value by default. */
export const DEFAULT_SECRET_VALUES: readonly RegExp[] = DEFAULT_VALUE_RULES.map((r) => r.pattern)

/** A key whose name ends like a default secret key, followed by its colon, in JSON text. */
const DEFAULT_KEY_SCAN = /(?:auth\w*|key|token|pass\w*|secret|cookie)"\s*:/i

export interface RedactPolicy {
  readonly keyNames: ReadonlySet<string>
  readonly keyPatterns: readonly RegExp[]
  readonly valuePatterns: readonly RegExp[]
  /** Find, in serialized JSON text, anything this policy could redact. Undefined: always walk. */
  readonly quickScans: readonly RegExp[] | undefined
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

let defaultPolicy: RedactPolicy | undefined

/** Resolves the `redact` option into a policy; undefined when nothing is to be redacted. */
export function resolveRedactPolicy(option: RedactOption | undefined): RedactPolicy | undefined {
  if (option === false) return undefined
  // The default policy is resolved once: most sessions use it, and its regexes need compiling.
  if (option === undefined) return (defaultPolicy ??= buildPolicy(undefined))
  return buildPolicy(option)
}

function buildPolicy(option: Exclude<RedactOption, false> | undefined): RedactPolicy | undefined {
  const list = Array.isArray(option) ? option : undefined
  const object = option !== undefined && !Array.isArray(option) ? (option as Exclude<RedactOption, false | readonly unknown[]>) : undefined
  const useDefaults = object?.defaults !== false
  const extraKeys = list ?? object?.keys ?? []

  const keyNames = new Set(useDefaults ? DEFAULT_SECRET_KEYS : [])
  const keyPatterns: RegExp[] = []
  for (const key of extraKeys) {
    if (typeof key === 'string') keyNames.add(normalizeKey(key))
    else keyPatterns.push(key)
  }
  const defaults = useDefaults ? DEFAULT_VALUE_RULES : []
  // Global flag so every occurrence in a string is replaced.
  const userValues = (object?.values ?? []).map((p) => (p.flags.includes('g') ? p : new RegExp(p.source, `${p.flags}g`)))
  const valuePatterns = [...defaults.map((r) => r.pattern), ...userValues]
  if (keyNames.size === 0 && keyPatterns.length === 0 && valuePatterns.length === 0) return undefined

  // Cheap scans of the serialized text decide whether a full walk is needed.
  // One regex per pattern, because a single alternation with the `i` flag
  // cannot use V8's fast literal search and costs more than the JSON.stringify
  // it guards. Every default key ends like DEFAULT_KEY_SCAN says, so that
  // scan is a superset; the walk makes the exact decision.
  let quickScans: RegExp[] | undefined
  if (keyPatterns.length === 0) {
    quickScans = [...defaults.map((r) => r.scan), ...userValues.map(withoutGlobal)]
    const userKeys = [...keyNames].filter((name) => !DEFAULT_SECRET_KEYS.includes(name))
    if (useDefaults) quickScans.push(DEFAULT_KEY_SCAN)
    if (userKeys.length > 0) {
      const loose = userKeys.map((name) => [...name].map((c) => `${escapeRegExp(c)}[-_]*`).join(''))
      quickScans.push(new RegExp(`(?:${loose.join('|')})"\\s*:`, 'i'))
    }
  }
  return { keyNames, keyPatterns, valuePatterns, quickScans }
}

/** True when `json` (serialized text) may hold something the policy redacts. */
export function mayNeedRedaction(json: string, policy: RedactPolicy): boolean {
  return policy.quickScans === undefined || policy.quickScans.some((scan) => scan.test(json))
}

function isSecretKey(key: string, policy: RedactPolicy): boolean {
  if (policy.keyNames.has(normalizeKey(key))) return true
  return policy.keyPatterns.some((pattern) => {
    pattern.lastIndex = 0
    return pattern.test(key)
  })
}

function redactString(text: string, policy: RedactPolicy): string {
  let out = text
  for (const pattern of policy.valuePatterns) {
    pattern.lastIndex = 0
    out = out.replace(pattern, REDACTED)
  }
  return out
}

/**
 * Returns `value` with secrets replaced. Unchanged branches are shared with
 * the input, changed ones are copies: the input is never modified.
 */
export function redactValue<T extends JsonValue>(value: T, policy: RedactPolicy): T {
  if (typeof value === 'string') return redactString(value, policy) as T
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((item) => {
      const next = redactValue(item, policy)
      if (next !== item) changed = true
      return next
    })
    return (changed ? out : value) as T
  }
  let changed = false
  const out: Record<string, JsonValue> = {}
  for (const [key, item] of Object.entries(value)) {
    const next = isSecretKey(key, policy) && item !== null ? REDACTED : redactValue(item, policy)
    if (next !== item) changed = true
    out[key] = next
  }
  return (changed ? out : value) as T
}
