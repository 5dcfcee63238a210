/**
 * Applies a policy to a JSON value.
 *
 *   redactValue()   any JSON value nested at most MAX_TRACE_DEPTH levels
 *                   (trace/depth.ts: checked by the public entry points, cut
 *                   by the recorder): objects and arrays walked by plain
 *                   recursion; strings by the rules of redact-text.ts
 *
 * A string holding a JSON object or array is parsed, walked, and written
 * back in its own style (json-text.ts). Unchanged branches are shared with
 * the input, changed ones copied: the input is never modified.
 */
import { nestingWithin } from '../trace/depth.js'
import { setOwn } from '../trace/serialize.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import { looksLikeJsonContainer, parseJsonContainer, stringifyLike } from './json-text.js'
import { isSecretName, keyCacheOf, keyInfo, REDACTED, type KeyInfo, type RedactPolicy } from './policy.js'
import { isWorthParsing, MIN_GATED_LENGTH, redactStringAsText } from './redact-text.js'

/** JSON inside a string inside a string ...: past this many levels, a string is treated as text. */
const MAX_JSON_LEVELS = 8
/**
 * How deep the JSON texts found in a value's strings may nest, all levels
 * together (a text in a string of a text ... counts each text's nesting):
 * deeper, a text is redacted as text, not walked. No entry point checked
 * their depth (JSON.parse reads any); this keeps the walk within the call
 * stack on top of the MAX_TRACE_DEPTH levels of the value itself.
 */
const MAX_REWRITE_DEPTH = 512

const HEADER_NAME_KEYS = ['name', 'key', 'header'] as const

/** JSON Schema keywords that describe a value without holding one (`default`, `examples` and `const` can hold one). */
const SCHEMA_KEYWORDS = new Set([
  'type',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'description',
  'title',
  'format',
  'pattern',
  'enum',
  'nullable',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'items',
  'properties',
  'required',
  'additionalProperties',
])

/**
 * `{ "password": { "type": "string", "description": "…" } }` in a tool's
 * parameters describes a secret, it does not hold one: such an object is
 * walked, not replaced.
 */
function isSchema(value: JsonValue): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  if (typeof value.type !== 'string' && value.$ref === undefined && value.anyOf === undefined && value.oneOf === undefined) return false
  for (const key in value) if (!SCHEMA_KEYWORDS.has(key)) return false
  return true
}

/** One application of a policy to one value (and, through `level`, to the JSON text found inside its strings). */
class Walk {
  readonly policy: RedactPolicy
  readonly #level: number
  readonly #quickStrings: boolean
  readonly #keys: Map<string, KeyInfo>
  /** Of MAX_REWRITE_DEPTH, the levels left to the JSON texts found by this walk (the texts around it used the rest). */
  #budget = MAX_REWRITE_DEPTH

  constructor(policy: RedactPolicy, level: number) {
    this.policy = policy
    this.#level = level
    this.#quickStrings = policy.valuePatterns.length === 0
    this.#keys = keyCacheOf(policy)
  }

  value(value: JsonValue): JsonValue {
    if (typeof value === 'string') return this.string(value)
    if (value === null || typeof value !== 'object') return value
    return Array.isArray(value) ? this.#array(value) : this.#object(value)
  }

  string(text: string): string {
    if (this.#quickStrings && text.length < MIN_GATED_LENGTH) return text
    if (this.#level < MAX_JSON_LEVELS && looksLikeJsonContainer(text) && isWorthParsing(text, this.policy)) {
      const parsed = parseJsonContainer(text)
      const nesting = parsed === undefined ? undefined : nestingWithin(parsed, this.#budget)
      if (parsed !== undefined && nesting !== undefined) {
        const inner = walkOf(this.policy, this.#level + 1)
        inner.#budget = this.#budget - nesting
        const out = inner.value(parsed)
        return out === parsed ? text : stringifyLike(text, out)
      }
    }
    return redactStringAsText(text, this.policy)
  }

  // The loops below test the type before calling: numbers, booleans and
  // null (most leaves of a trace) cost no call.

  #array(array: JsonValue[]): JsonValue {
    let copy: JsonValue[] | undefined
    const tuple = this.#isHeaderTuple(array)
    for (let i = 0; i < array.length; i++) {
      const item = array[i]!
      let next: JsonValue
      if (tuple && i === 1) next = REDACTED
      else if (typeof item === 'string') next = this.string(item)
      else if (item !== null && typeof item === 'object') next = this.value(item)
      else continue
      if (next !== item) (copy ??= array.slice())[i] = next
    }
    return copy ?? array
  }

  #object(object: JsonObject): JsonValue {
    let copy: JsonObject | undefined
    let renamed = false
    for (const key in object) {
      const item = object[key]!
      const info = this.#keyInfo(key)
      if ((info.written ??= this.string(key)) !== key) renamed = true
      let next: JsonValue
      if (this.#isSecretEntry(object, key, item, info)) next = REDACTED
      else if (typeof item === 'string') next = this.string(item)
      else if (item !== null && typeof item === 'object') next = this.value(item)
      else continue
      if (next !== item) setOwn((copy ??= copyObject(object)), key, next)
    }
    return renamed ? this.#withWrittenKeys(copy ?? object) : (copy ?? object)
  }

  /** `['Authorization', 'Token …']`: a pair whose first item names a secret. */
  #isHeaderTuple(array: JsonValue[]): boolean {
    if (array.length !== 2 || typeof array[0] !== 'string') return false
    const value = array[1]
    return (typeof value === 'string' || typeof value === 'number') && isSecretName(array[0], this.policy)
  }

  /** `{ name: 'Authorization', value: '…' }` (HAR files, header lists): the key `value` holds the secret. */
  #isHeaderValue(object: JsonObject): boolean {
    if (!this.policy.defaults) return false
    for (const nameKey of HEADER_NAME_KEYS) {
      const name = object[nameKey]
      if (typeof name === 'string' && isSecretName(name, this.policy)) return true
    }
    return false
  }

  /** `text` (a string value, or a key) is written as it is. */
  keeps(text: string): boolean {
    return this.string(text) === text
  }

  /** `object[key]` (`item`) is left in place by its key: neither renamed nor replaced as a whole. `item` itself is not looked into. */
  keepsEntry(object: JsonObject, key: string, item: JsonValue): boolean {
    const info = this.#keyInfo(key)
    return (info.written ??= this.string(key)) === key && !this.#isSecretEntry(object, key, item, info)
  }

  /** `array` is not a header pair (`['Authorization', '…']`). Its items are not looked into. */
  keepsArray(array: JsonValue[]): boolean {
    return !this.#isHeaderTuple(array)
  }

  #keyInfo(key: string): KeyInfo {
    return this.#keys.get(key) ?? keyInfo(key, this.policy, this.#keys)
  }

  /**
   * Whether `object[key]` (`item`, whose key `info` describes) is replaced as
   * a whole. Null and booleans never are: they hold no secret. The context
   * of the object is read only for the two keys it can change (`value`,
   * `token`), so ordinary objects cost no extra property reads.
   */
  #isSecretEntry(object: JsonObject, key: string, item: JsonValue, info: KeyInfo): boolean {
    if (item === null || typeof item === 'boolean') return false
    if (info.kind === 'plain') return key === 'value' && this.#isHeaderValue(object)
    // `{ token: 'Hello', logprob: -0.1 }` (log-probabilities): a token of text.
    if (key === 'token' && this.policy.defaults && object.logprob !== undefined) return false
    if (info.kind === 'secret') return !isSchema(item)
    return typeof item === 'string' || typeof item === 'number'
  }

  /** The key as written: a secret in the key itself replaced. */
  #writtenKey(key: string): string {
    const info = this.#keyInfo(key)
    return (info.written ??= this.string(key))
  }

  /** `object` with its keys as written, made unique again (`[REDACTED]`, `[REDACTED]#2`), in the same order. */
  #withWrittenKeys(object: JsonObject): JsonObject {
    const out: JsonObject = {}
    const taken = new Set<string>()
    for (const key in object) {
      const written = this.#writtenKey(key)
      let unique = written
      for (let n = 2; taken.has(unique); n++) unique = `${written}#${n}`
      taken.add(unique)
      setOwn(out, unique, object[key]!)
    }
    return out
  }
}

/** A shallow copy of `object` with the same keys in the same order. */
function copyObject(object: JsonObject): JsonObject {
  const copy: JsonObject = {}
  for (const key in object) setOwn(copy, key, object[key]!)
  return copy
}

const walks = new WeakMap<RedactPolicy, Walk[]>()

/**
 * The Walk of `policy` at `level`, made once: V8's optimised code refers to
 * the objects it met, and a Walk made per call dies at the next GC and
 * takes that code with it ("weak objects" deopts), so each save would run
 * unoptimised. A walk is never re-entered at its own level: JSON found in a
 * string is walked one level down.
 */
function walkOf(policy: RedactPolicy, level: number): Walk {
  let byLevel = walks.get(policy)
  if (byLevel === undefined) walks.set(policy, (byLevel = []))
  return (byLevel[level] ??= new Walk(policy, level))
}

/**
 * Returns `value` with secrets replaced under `policy`. Unchanged branches
 * are shared with the input, changed ones are copies: the input is never
 * modified. Never throws on a JSON value nested at most MAX_TRACE_DEPTH levels
 * (trace/depth.ts); JSON text in its strings may nest any depth.
 */
export function redactValue<T extends JsonValue>(value: T, policy: RedactPolicy): T {
  return walkOf(policy, 0).value(value) as T
}

/**
 * The questions `redactValue` asks of one value, part by part, for a walk
 * of the caller's own that must know whether a value comes out unchanged
 * without building the redacted copy (a replayed request's key, written in
 * the same pass as its normal form, replay/normal-text.ts): a value comes
 * out as it is when every string in it is kept (`keeps`), every object
 * entry is (`keepsEntry`, then its item) and every array is (`keepsArray`,
 * then its items). A no is cautious: a secret already written as
 * `[REDACTED]` is a no, though the walk leaves it equal.
 */
export interface RedactProbe {
  keeps(text: string): boolean
  keepsEntry(object: JsonObject, key: string, item: JsonValue): boolean
  keepsArray(array: JsonValue[]): boolean
}

/** The probe of `policy`: its top-level walk, as `redactValue` applies it. */
export function redactProbe(policy: RedactPolicy): RedactProbe {
  return walkOf(policy, 0)
}
