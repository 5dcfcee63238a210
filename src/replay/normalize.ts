/**
 * A request in normal form: the form a call is matched on, kept in
 * recordings and journals. Two requests asking the same thing have the same
 * normal form, whichever run, machine or SDK version made them:
 *
 * - JSON only, keys sorted; `undefined`, functions and symbols dropped (as
 *   `JSON.stringify` drops them), Dates and URLs as text, bytes as their
 *   size and SHA-256 (a recording never holds an image twice);
 * - fields that do not change the answer (`omit`, at the top: who is asking,
 *   caching hints, metadata) left out;
 * - ids the provider or the SDK generates (tool call ids, item ids, previous
 *   response ids) renumbered `id_1`, `id_2`, ... in order of appearance, so a
 *   conversation re-recorded live (new ids) still matches. Tool inputs and
 *   schemas are data, not ids: they are kept as they are.
 */
import { createHash } from 'node:crypto'
import { setOwn } from '../trace/serialize.js'
import type { JsonObject, JsonValue } from '../trace/types.js'

/** Top-level fields of a provider request that never change the answer. */
export const NOT_THE_ANSWER: ReadonlySet<string> = new Set([
  'user',
  'metadata',
  'store',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
])

/** Keys whose string values are generated ids. */
export const ID_KEYS: ReadonlySet<string> = new Set([
  'id',
  'call_id',
  'tool_call_id',
  'tool_use_id',
  'toolCallId',
  'callId',
  'item_id',
  'itemId',
  'response_id',
  'responseId',
  'previous_response_id',
  'previousResponseId',
])

/** Keys whose object values are data (a tool's input, a JSON schema): ids inside them are the user's. */
export const DATA_KEYS: ReadonlySet<string> = new Set([
  'input',
  'arguments',
  'args',
  'parameters',
  'schema',
  'json_schema',
  'input_schema',
  'inputSchema',
  'output_schema',
])

/** Past this depth a value is written `"[too deep]"`. */
export const MAX_DEPTH = 200

export interface NormalizeOptions {
  /** Top-level fields to leave out. Default: none. */
  omit?: ReadonlySet<string>
  /** Renumber generated ids. Default: true (a tool's input: false). */
  renumberIds?: boolean
}

/** Bytes in a normal form: their size and SHA-256, never the bytes (a recording never holds an image twice). */
export function digestOf(view: ArrayBufferView | ArrayBuffer): { bytes: number; sha256: string } {
  const bytes = view instanceof ArrayBuffer ? new Uint8Array(view) : new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
  return { bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') }
}

class Normalizer {
  readonly #ids = new Map<string, string>()
  readonly #renumber: boolean
  readonly #seen = new Set<object>()

  constructor(renumber: boolean) {
    this.#renumber = renumber
  }

  #id(value: string): string {
    let id = this.#ids.get(value)
    if (id === undefined) this.#ids.set(value, (id = `id_${this.#ids.size + 1}`))
    return id
  }

  value(value: unknown, depth: number, isData: boolean): JsonValue | undefined {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
    if (typeof value === 'number') return Number.isFinite(value) ? value : null
    if (typeof value === 'bigint') return value.toString()
    if (typeof value !== 'object') return undefined
    if (depth > MAX_DEPTH) return '[too deep]'
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return digestOf(value)
    if (typeof Blob !== 'undefined' && value instanceof Blob) return { blob: value.size, type: value.type }
    if (this.#seen.has(value)) return '[circular]'
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function' && !Array.isArray(value)) return this.value(toJSON.call(value), depth + 1, isData)
    this.#seen.add(value)
    try {
      if (Array.isArray(value)) return value.map((item) => this.value(item, depth + 1, isData) ?? null)
      if (value instanceof Map) return this.#object(Object.fromEntries(value), depth, isData, undefined)
      if (value instanceof Set) return [...value].map((item) => this.value(item, depth + 1, isData) ?? null)
      return this.#object(value as Record<string, unknown>, depth, isData, undefined)
    } finally {
      this.#seen.delete(value)
    }
  }

  #object(value: Record<string, unknown>, depth: number, isData: boolean, omit: ReadonlySet<string> | undefined): JsonObject {
    const out: JsonObject = {}
    for (const key of Object.keys(value).sort()) {
      if (omit?.has(key) === true) continue
      const item = value[key]
      if (!isData && this.#renumber && typeof item === 'string' && ID_KEYS.has(key)) {
        setOwn(out, key, this.#id(item))
        continue
      }
      const data = isData || (DATA_KEYS.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item))
      const json = this.value(item, depth + 1, data)
      if (json !== undefined) setOwn(out, key, json)
    }
    return out
  }

  top(value: unknown, omit: ReadonlySet<string> | undefined): JsonValue {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      return this.value(value, 0, false) ?? null
    }
    this.#seen.add(value)
    return this.#object(value as Record<string, unknown>, 0, false, omit)
  }
}

/** `request` in normal form (see the top of this file). Never throws on any value. */
export function normalizeRequest(request: unknown, { omit, renumberIds = true }: NormalizeOptions = {}): JsonValue {
  try {
    return new Normalizer(renumberIds).top(request, omit)
  } catch (error) {
    // A getter that throws, a revoked Proxy: such a request is matched by what it says about itself.
    return { unreadable: error instanceof Error ? error.message : String(error) }
  }
}
