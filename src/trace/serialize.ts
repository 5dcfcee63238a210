/**
 * The one owner of turning values into JSON.
 *
 *   toJsonValue()     any runtime value -> a JSON value, never throws
 *   stringifyTrace()  a trace file as written after a run (2-space indent)
 *   stringifyStable() sorted keys, 2-space indent, trailing newline (golden files)
 *
 * Recording converts values at the moment they are logged, so a later mutation
 * by the agent cannot rewrite history, and writing is a plain JSON.stringify.
 */
import type { JsonObject, JsonValue } from './types.js'

/** What was not plain JSON and got a stand-in. One warning is emitted per kind and session. */
export type ValueIssueKind =
  | 'circular reference'
  | 'BigInt'
  | 'function'
  | 'symbol'
  | 'undefined'
  | 'Error'
  | 'Date'
  | 'Map'
  | 'Set'
  | 'typed array'
  | 'throwing getter'
  | 'non-finite number'
  | 'Promise'
  | 'nesting too deep'
  | 'unreadable object'

export type ValueIssueHandler = (kind: ValueIssueKind, path: string) => void

const MAX_DEPTH = 64
const MAX_TYPED_ARRAY_ITEMS = 1024

const STAND_IN_DESCRIPTION: Record<ValueIssueKind, string> = {
  'circular reference': 'written as "[Circular]"',
  BigInt: 'written as a decimal string',
  function: 'written as "[Function: name]"',
  symbol: 'written as "Symbol(description)"',
  undefined: 'written as null',
  Error: 'written as { name, message, ... }',
  Date: 'written as an ISO 8601 string',
  Map: 'written as an object (or [key, value] pairs when keys are not strings)',
  Set: 'written as an array',
  'typed array': 'written as an array of numbers',
  'throwing getter': 'written as "[Thrown: message]"',
  'non-finite number': 'written as "NaN", "Infinity" or "-Infinity"',
  Promise: 'written as "[Promise]" (was an await forgotten?)',
  'nesting too deep': `cut at depth ${MAX_DEPTH} and written as "[Too deep]"`,
  'unreadable object': 'written as "[Unreadable: message]"',
}

/** How a stand-in is written, for warning messages. */
export function describeStandIn(kind: ValueIssueKind): string {
  return STAND_IN_DESCRIPTION[kind]
}

/** Kinds whose name is not a noun a warning can count ("a nesting too deep"). */
const ISSUE_NOUNS: Partial<Record<ValueIssueKind, { one: string; many: string }>> = {
  undefined: { one: 'an undefined value', many: 'undefined values' },
  'nesting too deep': { one: 'a value nested too deep', many: 'values nested too deep' },
}

/** The kind as a warning says it: one (`an Error`, `a Date`), and many (`Error values`). */
export function nameIssue(kind: ValueIssueKind): { one: string; many: string } {
  return ISSUE_NOUNS[kind] ?? { one: `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}`, many: `${kind} values` }
}

function pathOf(keys: readonly (string | number)[]): string {
  let out = ''
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(key)}]`
  }
  return out
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error)
  } catch {
    return 'unknown error'
  }
}

class Converter {
  readonly #onIssue: ValueIssueHandler | undefined
  readonly #keys: (string | number)[] = []
  readonly #ancestors: object[] = []

  constructor(onIssue: ValueIssueHandler | undefined) {
    this.#onIssue = onIssue
  }

  #issue(kind: ValueIssueKind): void {
    this.#onIssue?.(kind, pathOf(this.#keys))
  }

  convert(value: unknown): JsonValue {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value
      case 'number':
        if (Number.isFinite(value)) return value
        this.#issue('non-finite number')
        return String(value)
      case 'undefined':
        // A missing value at the top (a tool that returns nothing) is normal, not worth a warning.
        if (this.#keys.length > 0) this.#issue('undefined')
        return null
      case 'bigint':
        this.#issue('BigInt')
        return value.toString()
      case 'symbol':
        this.#issue('symbol')
        return value.toString()
      case 'function':
        this.#issue('function')
        return `[Function: ${value.name || '(anonymous)'}]`
      default:
        return value === null || value === undefined ? null : this.#convertObject(value)
    }
  }

  #child(key: string | number, value: unknown): JsonValue {
    this.#keys.push(key)
    try {
      return this.convert(value)
    } finally {
      this.#keys.pop()
    }
  }

  #convertObject(value: object): JsonValue {
    if (this.#ancestors.includes(value)) {
      this.#issue('circular reference')
      return '[Circular]'
    }
    if (this.#ancestors.length >= MAX_DEPTH) {
      this.#issue('nesting too deep')
      return '[Too deep]'
    }
    this.#ancestors.push(value)
    try {
      return this.#convertKnownObject(value)
    } catch (error) {
      // A Proxy that throws on ownKeys, a host object that refuses to be read.
      this.#issue('unreadable object')
      return `[Unreadable: ${messageOf(error)}]`
    } finally {
      this.#ancestors.pop()
    }
  }

  #convertKnownObject(value: object): JsonValue {
    if (Array.isArray(value)) {
      const out: JsonValue[] = new Array(value.length)
      for (let i = 0; i < value.length; i++) out[i] = this.#child(i, value[i])
      return out
    }
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto === Object.prototype || proto === null) return this.#convertEntries(value)
    if (value instanceof Date) {
      this.#issue('Date')
      return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
    }
    if (value instanceof Error) return this.#convertError(value)
    if (value instanceof Map) return this.#convertMap(value)
    if (value instanceof Set) {
      this.#issue('Set')
      return [...value].map((item, i) => this.#child(i, item))
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return this.#convertBinary(value)
    if (value instanceof Promise) {
      this.#issue('Promise')
      return '[Promise]'
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') return this.convert(toJSON.call(value))
    // A class instance: its own enumerable properties, as JSON.stringify would.
    return this.#convertEntries(value)
  }

  #convertEntries(value: object): JsonObject {
    const out: JsonObject = {}
    for (const key of Object.keys(value)) {
      let item: unknown
      try {
        item = (value as Record<string, unknown>)[key]
      } catch (error) {
        this.#keys.push(key)
        this.#issue('throwing getter')
        this.#keys.pop()
        setOwn(out, key, `[Thrown: ${messageOf(error)}]`)
        continue
      }
      // JSON.stringify drops function-valued and undefined keys of class
      // instances too; we keep them visible as stand-ins instead.
      setOwn(out, key, this.#child(key, item))
    }
    return out
  }

  #convertError(error: Error): JsonObject {
    this.#issue('Error')
    // The stack is left out on purpose: it holds machine paths and line
    // numbers, which would make every golden comparison fail on another machine.
    const out: JsonObject = { name: error.name, message: error.message }
    for (const key of Object.keys(error)) {
      if (key === 'stack') continue
      setOwn(out, key, this.#child(key, (error as unknown as Record<string, unknown>)[key]))
    }
    if (error.cause !== undefined) out.cause = this.#child('cause', error.cause)
    return out
  }

  #convertMap(map: Map<unknown, unknown>): JsonValue {
    this.#issue('Map')
    const plainKeys = [...map.keys()].every((key) => typeof key === 'string' || typeof key === 'number')
    if (plainKeys) {
      const out: JsonObject = {}
      for (const [key, item] of map) setOwn(out, String(key), this.#child(String(key), item))
      return out
    }
    return [...map].map(([key, item], i) => [this.#child(i, key), this.#child(i, item)])
  }

  #convertBinary(value: ArrayBufferView | ArrayBuffer): JsonValue {
    this.#issue('typed array')
    const view = value instanceof ArrayBuffer ? new Uint8Array(value) : value
    const kind = view.constructor.name
    if (!('length' in view) || typeof view.length !== 'number') return `[${kind} ${view.byteLength} bytes]`
    if (view.length > MAX_TYPED_ARRAY_ITEMS) return `[${kind} of ${view.length} items]`
    return Array.from(view as unknown as ArrayLike<number | bigint>, (item) => (typeof item === 'bigint' ? item.toString() : item))
  }
}

/** Returned by `copyIfPlain` when the value needs the careful converter. */
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON')
const FAST_PATH_DEPTH = 32

/**
 * Copies a value that is already plain JSON (the overwhelming case: parsed
 * provider payloads, literal arguments). Gives up with NOT_PLAIN at the first
 * value that needs a stand-in, so that the careful converter runs instead.
 * Cycles always exceed the depth bound, so they reach the converter too.
 */
function copyPlain(value: unknown, depth: number): JsonValue | typeof NOT_PLAIN {
  // for...in rather than Object.keys: no key array is allocated, and this
  // runs for every logged value.
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : NOT_PLAIN
  if (typeof value !== 'object' || depth > FAST_PATH_DEPTH) return NOT_PLAIN
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = copyPlain(value[i], depth + 1)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out[i] = item
    }
    return out
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const out: JsonObject = {}
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = copyPlain((value as Record<string, unknown>)[key], depth + 1)
    if (item === NOT_PLAIN) return NOT_PLAIN
    setOwn(out, key, item)
  }
  return out
}

/** A copy of `value` when it is plain JSON, else NOT_PLAIN (then use `toJsonValue`). Never throws. */
export function copyIfPlain(value: unknown): JsonValue | typeof NOT_PLAIN {
  try {
    return copyPlain(value, 0)
  } catch {
    return NOT_PLAIN
  }
}

/**
 * Converts any value to JSON without throwing. Values JSON cannot hold get a
 * readable stand-in and `onIssue` is told the kind and the path inside `value`
 * (prefixed with `at`, when given).
 */
export function toJsonValue(value: unknown, onIssue?: ValueIssueHandler, at = ''): JsonValue {
  if (value === undefined) return null
  try {
    const copy = copyPlain(value, 0)
    if (copy !== NOT_PLAIN) return copy
  } catch {
    // A getter threw or a Proxy refused: the converter below reports it precisely.
  }
  const handler: ValueIssueHandler | undefined =
    onIssue === undefined || at === '' ? onIssue : (kind, path) => onIssue(kind, path === '' ? at : path.startsWith('[') ? at + path : `${at}.${path}`)
  return new Converter(handler).convert(value)
}

/** Sets `out[key]`, as an own property even for `__proto__` (an assignment would replace the prototype instead). */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

/**
 * Sorted keys, 2-space indent, trailing newline: the golden normal form.
 * `floatKeys` names, per object, keys whose whole-number values are written
 * with a `.0` so Python reads them back as floats (times are floats in format "1").
 */
export function stringifyStable(value: JsonValue, floatKeys?: WeakMap<object, ReadonlySet<string>>): string {
  // Sort into a fresh tree and let the native JSON.stringify do the writing:
  // a hand-written printer is several times slower on a 10,000-turn golden.
  return `${writeFloats(JSON.stringify(sortKeys(value, floatKeys), null, 2))}\n`
}

// Whole-number floats travel as marker strings and are patched afterwards,
// since JSON.stringify cannot write `0.0`. The marker holds a random nonce
// drawn once per process, so no recorded string can forge one (a string that
// merely looks like a marker stays a string).
// Web Crypto (Node's global too): the viewer's page type-checks the modules its types come from, and has no node:crypto.
const FLOAT_NONCE = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('')
const FLOAT_MARK = `\u0000${FLOAT_NONCE}:`
const FLOAT_MARK_TEXT = `\\u0000${FLOAT_NONCE}:`
const FLOAT_MARKER_TEXT = new RegExp(`"\\\\u0000${FLOAT_NONCE}:(-?\\d+)"`, 'g')

/** JSON text of a `sortKeys` tree with its float markers written as numbers with a `.0`. */
export function writeFloats(text: string): string {
  return text.includes(FLOAT_MARK_TEXT) ? text.replace(FLOAT_MARKER_TEXT, '$1.0') : text
}

/**
 * A copy of `value` with the keys of every object sorted, and the whole
 * numbers under the keys `floatKeys` names (per object) turned into float
 * markers for `writeFloats`. Objects are built without a prototype, so a
 * `__proto__` key is kept as data.
 */
export function sortKeys(value: JsonValue, floatKeys?: WeakMap<object, ReadonlySet<string>>, asFloat = false): unknown {
  if (value === null || typeof value !== 'object') {
    return asFloat && typeof value === 'number' && Number.isInteger(value) ? `${FLOAT_MARK}${value}` : value
  }
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, floatKeys))
  const floats = floatKeys?.get(value)
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as JsonValue, floatKeys, floats?.has(key) === true)
  return out
}
