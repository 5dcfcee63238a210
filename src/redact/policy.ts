/**
 * The `redact` option, resolved once into a policy: which keys are secret
 * (the built-in key words plus the user's names and patterns), which value
 * patterns the user added, and the environment secrets to look for.
 */
import { envSecretsOf, processEnvSecrets } from './env-secrets.js'
import { classifyWords, compactName, splitKeyWords, type KeyClass } from './key-words.js'

export const REDACTED = '[REDACTED]'

/**
 * `false` turns all redaction off. A list adds key names (strings) or key
 * patterns (RegExps) to the defaults. The object form also takes value
 * patterns and can drop the defaults.
 */
export type RedactOption =
  | false
  | ReadonlyArray<string | RegExp>
  | {
      /**
       * Key names or patterns whose values are replaced as a whole. A name
       * matches keys with the same words in any case or separator style, alone
       * or within a longer key (`'ssn'`: `SSN`, `customer_ssn`); a RegExp is
       * tested against the key as it is.
       */
      keys?: ReadonlyArray<string | RegExp>
      /** Patterns replaced wherever they match in any string value (`^…$` anchors to the whole string). */
      values?: readonly RegExp[]
      /** Keep the built-in key words, value shapes and environment secrets. Default: true. */
      defaults?: boolean
    }

export interface RedactPolicy {
  /** The built-in rules apply: key words, value shapes, JSON in strings, header pairs, environment secrets. */
  readonly defaults: boolean
  /** The user's key names, as their words joined (`customerssn`). */
  readonly keyNames: ReadonlySet<string>
  readonly keyPatterns: readonly RegExp[]
  /** The user's value patterns, with the `g` flag. */
  readonly valuePatterns: readonly RegExp[]
  /** Literal values replaced wherever they appear (the environment's secrets), longest first. */
  readonly literals: readonly string[]
}

/** Where the environment secrets are read; a test passes its own. */
export interface RedactEnvironment {
  env?: Readonly<Record<string, string | undefined>>
}

const OPTION_HELP = 'redact must be false, a list of key names and RegExps, or { keys, values, defaults }'

function describe(value: unknown): string {
  if (value instanceof RegExp) return String(value)
  return typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

function checkKeys(keys: unknown, where: string): ReadonlyArray<string | RegExp> {
  if (!Array.isArray(keys)) throw new TypeError(`${OPTION_HELP}; ${where} must be a list of key names and RegExps, got ${describe(keys)}.`)
  for (const key of keys) {
    if (!(typeof key === 'string' && key !== '') && !(key instanceof RegExp)) {
      throw new TypeError(`${OPTION_HELP}; ${where} holds ${describe(key)}, which is neither a key name nor a RegExp.`)
    }
  }
  return keys as ReadonlyArray<string | RegExp>
}

function checkValues(values: unknown): readonly RegExp[] {
  if (!Array.isArray(values) || values.some((value) => !(value instanceof RegExp))) {
    throw new TypeError(`${OPTION_HELP}; redact.values must be a list of RegExps (e.g. [/\\d{3}-\\d{2}-\\d{4}/]), got ${describe(values)}.`)
  }
  return values as readonly RegExp[]
}

const OBJECT_KEYS = new Set(['keys', 'values', 'defaults'])

function build(option: Exclude<RedactOption, false> | undefined, env: RedactEnvironment): RedactPolicy {
  let keys: ReadonlyArray<string | RegExp> = []
  let values: readonly RegExp[] = []
  let defaults = true
  if (Array.isArray(option)) {
    keys = checkKeys(option, 'the list')
  } else if (option !== undefined) {
    if (option === null || typeof option !== 'object') throw new TypeError(`${OPTION_HELP}; got ${describe(option)}.`)
    const object = option as Record<string, unknown>
    for (const key of Object.keys(object)) {
      if (!OBJECT_KEYS.has(key)) throw new TypeError(`${OPTION_HELP}; unknown key "${key}" (valid: keys, values, defaults).`)
    }
    if (object.keys !== undefined) keys = checkKeys(object.keys, 'redact.keys')
    if (object.values !== undefined) values = checkValues(object.values)
    if (object.defaults !== undefined && typeof object.defaults !== 'boolean') {
      throw new TypeError(`${OPTION_HELP}; redact.defaults must be true or false, got ${describe(object.defaults)}.`)
    }
    defaults = object.defaults !== false
  }
  const keyNames = new Set<string>()
  const keyPatterns: RegExp[] = []
  for (const key of keys) {
    if (typeof key === 'string') keyNames.add(compactName(key))
    else keyPatterns.push(key)
  }
  keyNames.delete('')
  return {
    defaults,
    keyNames,
    keyPatterns,
    // Global, so that every occurrence in a string is replaced.
    valuePatterns: values.map((p) => (p.flags.includes('g') ? p : new RegExp(p.source, `${p.flags}g`))),
    literals: !defaults ? [] : env.env === undefined ? processEnvSecrets() : envSecretsOf(env.env),
  }
}

/** Whether the policy redacts anything at all. */
function isEmpty(policy: RedactPolicy): boolean {
  return !policy.defaults && policy.keyNames.size === 0 && policy.keyPatterns.length === 0 && policy.valuePatterns.length === 0
}

let defaultPolicy: RedactPolicy | undefined
const resolved = new WeakMap<object, RedactPolicy>()

function resolve(option: RedactOption | undefined, environment: RedactEnvironment): RedactPolicy {
  if (environment.env !== undefined) return build(option || undefined, environment)
  if (option === undefined) return (defaultPolicy ??= build(undefined, environment))
  // Not an object: build() names the problem.
  if (typeof option !== 'object' || option === null) return build(option as never, environment)
  let policy = resolved.get(option)
  if (policy === undefined) resolved.set(option, (policy = build(option as Exclude<RedactOption, false>, environment)))
  return policy
}

/**
 * Resolves the `redact` option into a policy; undefined when nothing is to be
 * redacted (`false`, or `{ defaults: false }` with no rules of the user's).
 * Throws a TypeError naming the problem for a malformed option. Policies are
 * cached per option object, so writers may call this for every entry they write.
 */
export function resolveRedactPolicy(option: RedactOption | undefined, environment: RedactEnvironment = {}): RedactPolicy | undefined {
  if (option === false) return undefined
  const policy = resolve(option, environment)
  return isEmpty(policy) ? undefined : policy
}

const MAX_CACHED_KEYS = 10_000

/** What a policy decided about a key name. */
export interface KeyInfo {
  readonly kind: KeyClass
  /** The key as written (secrets in the name itself replaced); filled in by the first walk that meets it. */
  written: string | undefined
}

const keyCaches = new WeakMap<RedactPolicy, Map<string, KeyInfo>>()

function matchesUserName(words: readonly string[], names: ReadonlySet<string>): boolean {
  // Every contiguous run of words, joined: `customer_ssn` offers customer, customerssn, ssn.
  for (let start = 0; start < words.length; start++) {
    let joined = ''
    for (let end = start; end < words.length; end++) {
      joined += words[end]!
      if (names.has(joined)) return true
    }
  }
  return false
}

function classifyUncached(key: string, policy: RedactPolicy): KeyClass {
  const words = splitKeyWords(key)
  if (policy.keyNames.size > 0 && matchesUserName(words, policy.keyNames)) return 'secret'
  for (const pattern of policy.keyPatterns) {
    pattern.lastIndex = 0
    if (pattern.test(key)) return 'secret'
  }
  return policy.defaults ? classifyWords(words) : 'plain'
}

/** The policy's cache of key decisions (a trace repeats its keys); a walk holds on to it. */
export function keyCacheOf(policy: RedactPolicy): Map<string, KeyInfo> {
  let cache = keyCaches.get(policy)
  if (cache === undefined) keyCaches.set(policy, (cache = new Map()))
  return cache
}

/**
 * Whether the value under `key` is secret: kind 'secret', 'weak' (only as a
 * string or number) or 'plain'. `cache`: the policy's (see keyCacheOf).
 */
export function keyInfo(key: string, policy: RedactPolicy, cache = keyCacheOf(policy)): KeyInfo {
  let info = cache.get(key)
  if (info === undefined) {
    info = { kind: classifyUncached(key, policy), written: undefined }
    // Adversarial text can offer endless distinct names: start over rather than grow.
    if (cache.size >= MAX_CACHED_KEYS) cache.clear()
    cache.set(key, info)
  }
  return info
}

/** Whether a name in text (`name=value`, a header line, a header tuple) names a secret; weak names count. */
export function isSecretName(name: string, policy: RedactPolicy): boolean {
  return keyInfo(name, policy).kind !== 'plain'
}
