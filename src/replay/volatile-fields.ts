/**
 * The fields of a recorded answer that a provider makes up anew on every
 * call, set to values that depend only on the recording, so recording the
 * same behaviour again changes no byte of the file
 * (docs/decisions/044-steady-recordings.md):
 *
 * - ids (`id`, `call_id`, `item_id`, `toolCallId`, `responseId`, ... the
 *   keys a request's normal form renumbers) become their prefix, the scope's
 *   tag and a number: `chatcmpl-104233-1`, `call_104233_2`, `toolu_104233_1`;
 *   the same id gets the same replacement everywhere in the scope (a
 *   stream's chunks share one; a response id a later call names is that
 *   call's), and ids with one prefix are numbered in order of first
 *   appearance, so a recording already in this form is left as it is. The
 *   tag (six digits of a hash of the recording's name, session id and user
 *   id) keeps the ids of two sessions apart when one conversation carries
 *   both (a handoff's receiving agent sees the handing agent's tool call);
 * - times (`created`, `timestamp`, keys ending in `_at` or `At`) become 0, or
 *   the epoch where they are a date;
 * - `system_fingerprint` becomes `fp_0`, a stream event's `obfuscation`
 *   padding the empty string.
 *
 * Requests are already in normal form (ids renumbered `id_N`), tool steps
 * hold the user's values: neither is touched. An id the caller named in the
 * path of a call before any answer gave it (a resource it already had) is
 * its own, and kept. Values are replaced where they stand: key order is the
 * recording's.
 */
import { createHash } from 'node:crypto'
import type { ExchangeRecord, StepRecord } from '../storage/index.js'
import { setOwn } from '../trace/serialize.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import { DATA_KEYS, ID_KEYS } from './normalize.js'

const EPOCH = new Date(0).toISOString()
const FINGERPRINT = 'fp_0'
/** The prefix of an id that has none of its own. */
const NO_PREFIX = 'id_'
const UUID_END = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Words each ended by `-` or `_`: `chatcmpl-`, `call_`, `lc_run--`. */
const PREFIX = /^(?:[A-Za-z]+[-_]+)*/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T/

function isTimeKey(key: string): boolean {
  return key === 'created' || key === 'timestamp' || key.endsWith('_at') || /[a-z]At$/.test(key)
}

function prefixOf(id: string): string {
  const uuid = UUID_END.exec(id)
  const prefix = uuid === null ? (PREFIX.exec(id)?.[0] ?? '') : id.slice(0, uuid.index)
  return prefix === '' || prefix === id ? NO_PREFIX : prefix
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A time as the same kind of value at the epoch: 0, the epoch's ISO text, a recorded Date (`{ $date }`). */
function epochOf(value: JsonValue): JsonValue {
  if (typeof value === 'number') return 0
  if (typeof value === 'string') return ISO_DATE.test(value) ? EPOCH : value
  if (isObject(value) && typeof value.$date === 'string' && Object.keys(value).length === 1) return { $date: EPOCH }
  return value
}

/** A model's description (OpenAI's and Anthropic's `GET /models`): its id is its name and its time its release, neither made up by the call. */
function isModel(value: JsonObject): boolean {
  return value.object === 'model' || (value.type === 'model' && 'display_name' in value)
}

/** Six digits naming a scope: digits, so an id's prefix (letters and separators) never takes them in. */
function tagOf(scope: readonly [name: string, sessionId: string | null, userId: string | null]): string {
  const hash = createHash('sha256').update(JSON.stringify(scope)).digest()
  return String(hash.readUInt32BE(0) % 1_000_000).padStart(6, '0')
}

class SteadyIds {
  readonly #tag: string
  readonly #ids = new Map<string, string>()
  readonly #counts = new Map<string, number>()
  /** Ids the caller named before any answer gave them: its own. */
  readonly #callers = new Set<string>()

  constructor(tag: string) {
    this.#tag = tag
  }

  step(step: ExchangeRecord): ExchangeRecord {
    const endpoint = this.#endpoint(step.endpoint)
    const response = this.#value(step.response as unknown as JsonValue) as unknown as ExchangeRecord['response']
    const out = { ...step }
    out.endpoint = endpoint
    out.response = response
    return out
  }

  /** The endpoint's path with the ids earlier answers gave replaced; the others are the caller's. */
  #endpoint(endpoint: string): string {
    const slash = endpoint.indexOf('/')
    if (slash === -1) return endpoint
    const path = endpoint.slice(slash).replace(/[^/?&=]+/g, (part) => {
      const id = this.#ids.get(part)
      if (id !== undefined) return id
      this.#callers.add(part)
      return part
    })
    return endpoint.slice(0, slash) + path
  }

  #id(id: string): string {
    if (id === '' || this.#callers.has(id)) return id
    let steady = this.#ids.get(id)
    if (steady === undefined) {
      const prefix = prefixOf(id)
      const count = (this.#counts.get(prefix) ?? 0) + 1
      this.#counts.set(prefix, count)
      const separator = prefix.at(-1)
      steady = `${prefix}${this.#tag}${separator}${count}`
      this.#ids.set(id, steady)
    }
    return steady
  }

  #value(value: JsonValue): JsonValue {
    if (Array.isArray(value)) return value.map((item) => this.#value(item))
    if (!isObject(value) || isModel(value)) return value
    const out: JsonObject = {}
    for (const key of Object.keys(value)) setOwn(out, key, this.#field(key, value[key]!))
    return out
  }

  #field(key: string, value: JsonValue): JsonValue {
    if (typeof value === 'string' && ID_KEYS.has(key)) return this.#id(value)
    if (isTimeKey(key)) return epochOf(value)
    if (key === 'system_fingerprint' && typeof value === 'string') return FINGERPRINT
    if (key === 'obfuscation' && typeof value === 'string') return ''
    // A tool's input, a schema: the user's values, whatever their keys.
    if (DATA_KEYS.has(key) && isObject(value)) return value
    return this.#value(value)
  }
}

/**
 * The steps of one recording scope with their volatile fields steady (see
 * the top of this file); `scope` is the recording's name and the scope's
 * session and user ids. Never changes `steps`.
 */
export function steadySteps(steps: readonly StepRecord[], scope: readonly [name: string, sessionId: string | null, userId: string | null]): StepRecord[] {
  const ids = new SteadyIds(tagOf(scope))
  return steps.map((step) => (step.kind === 'exchange' ? ids.step(step) : step))
}
