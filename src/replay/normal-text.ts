/**
 * A replayed HTTP call's JSON request, against the recording, in one walk
 * over the parsed body: compared with a recorded request (`isRecorded`),
 * or, when a key is needed, written as its key's text (`textOf`).
 *
 * The text: the request's normal form (normalize.ts) made in one walk that
 * also asks the session's redaction about each part, then written: the text
 * `JSON.stringify(redactForDisk(normalizeRequest(value, { omit })))` gives
 * when redaction leaves the request as it is, which is what a replayed HTTP
 * call is matched on (step-key.ts). It saves the separate walks of the long
 * way (the normal form built, its nesting checked, a redacted copy walked)
 * and, across a session, redaction's look at a string it has already found
 * nothing in: an agent sends its system prompt, its tools and the
 * conversation so far again with every call.
 *
 * Undefined when redaction would change a part (the request holds a
 * secret), an object has an integer-like key (JavaScript enumerates those
 * first, not in sorted order) or the value nests past the normal form's
 * depth: the caller then takes the long way, whose result is the same.
 */
import { redactProbe, resolveRedactPolicy, type RedactOption, type RedactProbe } from '../redact/index.js'
import { setOwn } from '../trace/serialize.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import { DATA_KEYS, ID_KEYS, MAX_DEPTH } from './normalize.js'

/** An array index (`"0"`, `"12"`): an object enumerates those first, in numeric order. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/
/** Shorter strings are looked at each time: redaction lets them through at once. */
const REMEMBERED_LENGTH = 3
/** Characters of kept strings remembered per session before it starts over (a bound on memory, not a cache policy). */
const REMEMBERED_CHARS = 8_000_000

/** Strings redaction found nothing in, for one session's policy. */
class KeptStrings {
  readonly #probe: RedactProbe
  readonly #kept = new Set<string>()
  #chars = 0

  constructor(probe: RedactProbe) {
    this.#probe = probe
  }

  keeps(text: string): boolean {
    if (text.length < REMEMBERED_LENGTH) return this.#probe.keeps(text)
    if (this.#kept.has(text)) return true
    if (!this.#probe.keeps(text)) return false
    if ((this.#chars += text.length) > REMEMBERED_CHARS) {
      this.#kept.clear()
      this.#chars = text.length
    }
    this.#kept.add(text)
    return true
  }
}

/** One request's walk: ids are renumbered per request. */
class NormalForm {
  readonly #ids = new Map<string, string>()
  readonly #probe: RedactProbe | undefined
  readonly #strings: KeptStrings | undefined
  /** Set when redaction would change a part, or the long way must say: the walk stops. */
  isLongWay = false

  constructor(probe: RedactProbe | undefined, strings: KeptStrings | undefined) {
    this.#probe = probe
    this.#strings = strings
  }

  /** Renumbered as normalize.ts renumbers: by first appearance in the sorted walk. */
  #id(value: string): string {
    let id = this.#ids.get(value)
    if (id === undefined) this.#ids.set(value, (id = `id_${this.#ids.size + 1}`))
    return id
  }

  value(value: JsonValue, depth: number, isData: boolean): JsonValue {
    if (typeof value === 'string') {
      if (this.#strings !== undefined && !this.#strings.keeps(value)) this.isLongWay = true
      return value
    }
    if (typeof value === 'number') return Number.isFinite(value) ? value : null
    if (value === null || typeof value === 'boolean') return value
    if (depth > MAX_DEPTH) {
      this.isLongWay = true
      return null
    }
    return Array.isArray(value) ? this.#array(value, depth, isData) : this.object(value, depth, isData, undefined)
  }

  #array(array: JsonValue[], depth: number, isData: boolean): JsonValue {
    if (this.#probe !== undefined && !this.#probe.keepsArray(array)) this.isLongWay = true
    const out: JsonValue[] = new Array<JsonValue>(array.length)
    for (let i = 0; i < array.length && !this.isLongWay; i++) out[i] = this.value(array[i]!, depth + 1, isData)
    return out
  }

  object(object: JsonObject, depth: number, isData: boolean, omit: ReadonlySet<string> | undefined): JsonValue {
    const out: JsonObject = {}
    const keys = Object.keys(object)
    // Integer-like keys come first in Object.keys: the first key says whether there are any.
    if (keys.length > 0 && INDEX_KEY.test(keys[0]!)) {
      this.isLongWay = true
      return out
    }
    keys.sort()
    const probe = this.#probe
    for (const key of keys) {
      if (omit?.has(key) === true) continue
      let item = object[key] as JsonValue
      if (!isData && typeof item === 'string' && ID_KEYS.has(key)) {
        item = this.#id(item)
        if (probe !== undefined && !(probe.keepsEntry(object, key, item) && probe.keeps(item))) this.isLongWay = true
      } else {
        if (probe !== undefined && !probe.keepsEntry(object, key, item)) this.isLongWay = true
        const data = isData || (DATA_KEYS.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item))
        item = this.value(item, depth + 1, data)
      }
      if (this.isLongWay) return out
      setOwn(out, key, item)
    }
    return out
  }
}

/**
 * One request compared with a recorded one in the walk that would make its
 * normal form: true when that normal form, left as it is by redaction,
 * equals `recorded` (which is what equal key texts say, without writing
 * either).
 */
class SameForm {
  readonly #ids = new Map<string, string>()
  readonly #probe: RedactProbe | undefined
  readonly #strings: KeptStrings | undefined

  constructor(probe: RedactProbe | undefined, strings: KeptStrings | undefined) {
    this.#probe = probe
    this.#strings = strings
  }

  #id(value: string): string {
    let id = this.#ids.get(value)
    if (id === undefined) this.#ids.set(value, (id = `id_${this.#ids.size + 1}`))
    return id
  }

  #string(value: string, recorded: JsonValue | undefined): boolean {
    return value === recorded && (this.#strings === undefined || this.#strings.keeps(value))
  }

  value(value: JsonValue, recorded: JsonValue | undefined, depth: number, isData: boolean): boolean {
    if (typeof value === 'string') return this.#string(value, recorded)
    if (typeof value === 'number') return Number.isFinite(value) ? value === recorded : recorded === null
    if (value === null || typeof value === 'boolean') return value === recorded
    if (depth > MAX_DEPTH || recorded === null || typeof recorded !== 'object') return false
    if (Array.isArray(value)) {
      if (!Array.isArray(recorded) || recorded.length !== value.length) return false
      if (this.#probe !== undefined && !this.#probe.keepsArray(value)) return false
      for (let i = 0; i < value.length; i++) if (!this.value(value[i]!, recorded[i], depth + 1, isData)) return false
      return true
    }
    return !Array.isArray(recorded) && this.object(value, recorded, depth, isData, undefined)
  }

  /**
   * Walks the recorded object's keys: a recorded request is written in
   * normal form, keys sorted, which is the order the normal form of `object`
   * is made in (and its ids numbered in). A recorded object whose keys are
   * not in that order (integer-like keys, which JavaScript enumerates first;
   * a file edited by hand) is left to the key.
   */
  object(object: JsonObject, recorded: JsonObject, depth: number, isData: boolean, omit: ReadonlySet<string> | undefined): boolean {
    const probe = this.#probe
    let count = 0
    let previous: string | undefined
    for (const key in recorded) {
      if ((previous !== undefined && key <= previous) || omit?.has(key) === true || !Object.hasOwn(object, key)) return false
      previous = key
      count++
      const item = object[key] as JsonValue
      if (!isData && typeof item === 'string' && ID_KEYS.has(key)) {
        const id = this.#id(item)
        if ((probe !== undefined && !probe.keepsEntry(object, key, id)) || !this.#string(id, recorded[key])) return false
        continue
      }
      if (probe !== undefined && !probe.keepsEntry(object, key, item)) return false
      const data = isData || (DATA_KEYS.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item))
      if (!this.value(item, recorded[key], depth + 1, data)) return false
    }
    // No key of `object` that the recorded one lacks.
    for (const key in object) if (omit?.has(key) !== true && --count < 0) return false
    return count === 0
  }
}

/** Writes the key text of one session's JSON requests, under its `redact` option. */
export class NormalTextWriter {
  readonly #probe: RedactProbe | undefined
  readonly #strings: KeptStrings | undefined

  /** Throws the TypeError of a malformed `redact` option, as redaction does. */
  constructor(redact: RedactOption | undefined) {
    const policy = resolveRedactPolicy(redact)
    this.#probe = policy === undefined ? undefined : redactProbe(policy)
    this.#strings = this.#probe === undefined ? undefined : new KeptStrings(this.#probe)
  }

  /**
   * Whether `value` (a value `JSON.parse` made) is the request `recorded`
   * holds (a recorded request: normal form, redacted): its key would be the
   * recorded one's. False may also mean that only the long way can say.
   */
  isRecorded(value: JsonValue, omit: ReadonlySet<string>, recorded: JsonValue): boolean {
    const walk = new SameForm(this.#probe, this.#strings)
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return walk.value(value, recorded, 0, false)
    return recorded !== null && typeof recorded === 'object' && !Array.isArray(recorded) && walk.object(value, recorded, 0, false, omit)
  }

  /** The text of `value`'s normal form (a value `JSON.parse` made), or undefined when the long way must say (see the top of this file). */
  textOf(value: JsonValue, omit: ReadonlySet<string>): string | undefined {
    const walk = new NormalForm(this.#probe, this.#strings)
    const normal = value === null || typeof value !== 'object' || Array.isArray(value) ? walk.value(value, 0, false) : walk.object(value, 0, false, omit)
    return walk.isLongWay ? undefined : JSON.stringify(normal)
  }
}
