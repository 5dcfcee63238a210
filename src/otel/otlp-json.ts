/**
 * OTLP/JSON, the JSON encoding of OpenTelemetry's `ExportTraceServiceRequest`
 * (what an OTLP/HTTP receiver takes with `Content-Type: application/json`, and
 * what the Collector's file exporter writes): its shapes, attribute values,
 * and times. Ids are hex (not base64, as plain proto3 JSON would have them),
 * times are nanoseconds since the epoch as decimal strings, enums integers.
 */

/** An attribute's value as reagent-flow reads it. */
export type AttributeValue = string | number | boolean | readonly AttributeValue[] | { readonly [key: string]: AttributeValue }

export interface OtlpAnyValue {
  stringValue?: string
  boolValue?: boolean
  intValue?: number | string
  doubleValue?: number
  arrayValue?: { values?: OtlpAnyValue[] }
  kvlistValue?: { values?: OtlpKeyValue[] }
  bytesValue?: string
}

export interface OtlpKeyValue {
  key: string
  value?: OtlpAnyValue
}

export interface OtlpStatus {
  /** 0 unset, 1 ok, 2 error. */
  code?: number
  message?: string
}

export interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind?: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes?: OtlpKeyValue[]
  status?: OtlpStatus
}

export interface OtlpExportRequest {
  resourceSpans: Array<{
    resource?: { attributes?: OtlpKeyValue[] }
    scopeSpans?: Array<{ scope?: { name?: string; version?: string }; spans?: OtlpSpan[] }>
  }>
}

export const SPAN_KIND_INTERNAL = 1
export const STATUS_ERROR = 2

export function encodeValue(value: AttributeValue): OtlpAnyValue {
  if (typeof value === 'string') return { stringValue: value }
  if (typeof value === 'boolean') return { boolValue: value }
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: value } : { doubleValue: value }
  if (Array.isArray(value)) return { arrayValue: { values: value.map(encodeValue) } }
  return { kvlistValue: { values: Object.entries(value).map(([key, item]) => ({ key, value: encodeValue(item as AttributeValue) })) } }
}

export function attribute(key: string, value: AttributeValue): OtlpKeyValue {
  return { key, value: encodeValue(value) }
}

/** How deep attribute values are read: what the trace writer keeps (deeper is written as "[Too deep]" there too). */
const MAX_VALUE_DEPTH = 64
const TOO_DEEP = '[Too deep]'

/**
 * A value as sent; undefined when it holds nothing reagent-flow reads (an
 * empty value, bytes). Lists and maps nested deeper than MAX_VALUE_DEPTH
 * become "[Too deep]": a hostile file nested 100,000 levels must not
 * overflow the stack.
 */
export function decodeValue(value: OtlpAnyValue | undefined, depth = 0): AttributeValue | undefined {
  if (value === undefined || value === null || typeof value !== 'object') return undefined
  if (typeof value.stringValue === 'string') return value.stringValue
  if (typeof value.boolValue === 'boolean') return value.boolValue
  if (value.intValue !== undefined) {
    const number = Number(value.intValue)
    return Number.isFinite(number) ? number : undefined
  }
  if (typeof value.doubleValue === 'number') return value.doubleValue
  if (value.arrayValue !== undefined) {
    if (depth >= MAX_VALUE_DEPTH) return TOO_DEEP
    return (value.arrayValue.values ?? []).map((item) => decodeValue(item, depth + 1)).filter((item): item is AttributeValue => item !== undefined)
  }
  if (value.kvlistValue !== undefined) {
    if (depth >= MAX_VALUE_DEPTH) return TOO_DEEP
    const out: Record<string, AttributeValue> = {}
    for (const { key, value: item } of value.kvlistValue.values ?? []) {
      const decoded = decodeValue(item, depth + 1)
      if (decoded !== undefined) out[key] = decoded
    }
    return out
  }
  return undefined
}

/** Epoch seconds (microseconds kept) as OTLP nanoseconds. */
export function nanosFromSeconds(seconds: number): string {
  return (BigInt(Math.round(seconds * 1e6)) * 1000n).toString()
}

/** The largest OTLP time: a fixed64 of nanoseconds (the year 2554). */
const MAX_NANOS = 2n ** 64n - 1n

/**
 * OTLP nanoseconds (a decimal string or a number) as epoch seconds, to the
 * microsecond; undefined when unreadable or beyond a fixed64 (a 400-digit
 * time would be Infinity, which no trace may hold).
 */
export function secondsFromNanos(nanos: unknown): number | undefined {
  if (typeof nanos === 'number') return Number.isFinite(nanos) && nanos >= 0 && nanos <= Number(MAX_NANOS) ? Math.round(nanos / 1e3) / 1e6 : undefined
  // 20 digits hold every fixed64: a longer string is refused before BigInt reads it.
  if (typeof nanos !== 'string' || nanos.length > 20 || !/^\d+$/.test(nanos) || BigInt(nanos) > MAX_NANOS) return undefined
  return Number(BigInt(nanos) / 1000n) / 1e6
}
