/**
 * Values an SDK returns, as a recording keeps them and gives them back: JSON
 * as it is, and the few kinds JSON cannot hold marked so they come back as
 * what they were: a Date (`{ "$date": iso }`), bytes (`{ "$bytes": base64 }`),
 * an Error (`{ "$error": { name, message } }`). `undefined` is left out, as
 * `JSON.stringify` leaves it out. For the SDKs answered at a model's own
 * layer (AI SDK results and stream parts, Agents SDK responses).
 */
import { setOwn, toJsonValue } from '../trace/serialize.js'
import type { JsonObject, JsonValue } from '../trace/types.js'

const MAX_DEPTH = 200

function encode(value: unknown, depth: number): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined
  if (typeof value !== 'object' || depth > MAX_DEPTH) return toJsonValue(value)
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? null : value.toISOString() }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    const bytes = value instanceof ArrayBuffer ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    return { $bytes: bytes.toString('base64') }
  }
  if (value instanceof Error) return { $error: { name: value.name, message: value.message } }
  if (Array.isArray(value)) return value.map((item) => encode(item, depth + 1) ?? null)
  const out: JsonObject = {}
  for (const key of Object.keys(value)) {
    const item = encode((value as Record<string, unknown>)[key], depth + 1)
    if (item !== undefined) setOwn(out, key, item)
  }
  return out
}

/** `value` as a recording keeps it. Never throws. */
export function toRecordedValue(value: unknown): JsonValue {
  try {
    return encode(value, 0) ?? null
  } catch {
    return toJsonValue(value)
  }
}

function isOnly(value: JsonObject, key: string): boolean {
  const keys = Object.keys(value)
  return keys.length === 1 && keys[0] === key
}

/** A recorded value as it was: a fresh copy each time (the caller may change it). */
export function fromRecordedValue(value: JsonValue): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(fromRecordedValue)
  if (isOnly(value, '$date')) return typeof value.$date === 'string' ? new Date(value.$date) : new Date(Number.NaN)
  if (isOnly(value, '$bytes') && typeof value.$bytes === 'string') return new Uint8Array(Buffer.from(value.$bytes, 'base64'))
  if (isOnly(value, '$error') && value.$error !== null && typeof value.$error === 'object' && !Array.isArray(value.$error)) {
    const error = new Error(String(value.$error.message ?? ''))
    error.name = String(value.$error.name ?? 'Error')
    return error
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(out, key, fromRecordedValue(value[key]!))
  return out
}
