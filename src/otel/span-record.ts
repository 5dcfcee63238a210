/**
 * One span as the dialect readers see it, wherever it came from: an OTLP/JSON
 * file (spansFromOtlp) or a span the OpenTelemetry SDK just ended
 * (spanFromReadable). Times are epoch seconds, as traces keep them.
 */
import { OtlpFormatError } from '../errors/index.js'
import { decodeValue, secondsFromNanos, STATUS_ERROR, type AttributeValue, type OtlpKeyValue } from './otlp-json.js'

export interface SpanRecord {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | null
  readonly name: string
  readonly start: number
  readonly end: number
  readonly attributes: ReadonlyMap<string, AttributeValue>
  /** `isError` for status code 2 (ERROR); its message, when it has one. */
  readonly status: { readonly isError: boolean; readonly message: string | null }
}

const HEX_TRACE_ID = /^[0-9a-f]{32}$/i
const HEX_SPAN_ID = /^[0-9a-f]{16}$/i

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function listAt(value: unknown, source: string, path: string): unknown[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new OtlpFormatError(source, path, `expected an array, got ${value === null ? 'null' : typeof value}`)
  return value
}

/**
 * The spans of an OTLP/JSON `ExportTraceServiceRequest` (`{ "resourceSpans":
 * [...] }`). Throws `OtlpFormatError` naming `source` and the JSON path of
 * the first thing that is not OTLP/JSON.
 */
export function spansFromOtlp(document: unknown, source: string): SpanRecord[] {
  if (!isObject(document) || !Array.isArray(document['resourceSpans'])) {
    throw new OtlpFormatError(
      source,
      '',
      'not an OTLP/JSON trace export: expected an object with a "resourceSpans" array (what an OTLP/HTTP exporter sends, or the Collector\'s file exporter writes)',
    )
  }
  const spans: SpanRecord[] = []
  document['resourceSpans'].forEach((resource: unknown, r) => {
    const scopes = listAt(isObject(resource) ? resource['scopeSpans'] : undefined, source, `resourceSpans[${r}].scopeSpans`)
    scopes.forEach((scope, s) => {
      const at = `resourceSpans[${r}].scopeSpans[${s}].spans`
      for (const [i, span] of listAt(isObject(scope) ? scope['spans'] : undefined, source, at).entries()) spans.push(spanOf(span, source, `${at}[${i}]`))
    })
  })
  return spans
}

function spanOf(span: unknown, source: string, path: string): SpanRecord {
  if (!isObject(span)) throw new OtlpFormatError(source, path, 'a span must be an object')
  const { traceId, spanId, parentSpanId, name } = span
  if (typeof traceId !== 'string' || !HEX_TRACE_ID.test(traceId)) throw new OtlpFormatError(source, `${path}.traceId`, 'expected 32 hex digits')
  if (typeof spanId !== 'string' || !HEX_SPAN_ID.test(spanId)) throw new OtlpFormatError(source, `${path}.spanId`, 'expected 16 hex digits')
  const start = secondsFromNanos(span['startTimeUnixNano'])
  const end = secondsFromNanos(span['endTimeUnixNano'])
  if (start === undefined)
    throw new OtlpFormatError(
      source,
      `${path}.startTimeUnixNano`,
      'expected nanoseconds since the epoch (a decimal string of at most 20 digits, an OTLP fixed64)',
    )
  if (end === undefined)
    throw new OtlpFormatError(
      source,
      `${path}.endTimeUnixNano`,
      'expected nanoseconds since the epoch (a decimal string of at most 20 digits, an OTLP fixed64)',
    )
  const attributes = new Map<string, AttributeValue>()
  for (const [i, entry] of listAt(span['attributes'], source, `${path}.attributes`).entries()) {
    if (!isObject(entry) || typeof entry['key'] !== 'string')
      throw new OtlpFormatError(source, `${path}.attributes[${i}]`, 'expected { "key": ..., "value": ... }')
    const value = decodeValue((entry as unknown as OtlpKeyValue).value)
    if (value !== undefined) attributes.set(entry['key'], value)
  }
  const status = isObject(span['status']) ? span['status'] : {}
  const code = status['code']
  return {
    traceId: traceId.toLowerCase(),
    spanId: spanId.toLowerCase(),
    parentSpanId: typeof parentSpanId === 'string' && HEX_SPAN_ID.test(parentSpanId) ? parentSpanId.toLowerCase() : null,
    name: typeof name === 'string' ? name : '',
    start,
    end: Math.max(start, end),
    attributes,
    status: {
      isError: code === STATUS_ERROR || code === 'STATUS_CODE_ERROR',
      message: typeof status['message'] === 'string' && status['message'] !== '' ? status['message'] : null,
    },
  }
}

/** The parts of an OpenTelemetry SDK `ReadableSpan` (sdk-trace-base 2.x) read here. */
export interface ReadableSpanLike {
  readonly name: string
  spanContext(): { traceId: string; spanId: string }
  readonly parentSpanContext?: { spanId: string } | undefined
  readonly startTime: readonly [number, number]
  readonly endTime: readonly [number, number]
  readonly attributes: Readonly<Record<string, unknown>>
  readonly status: { code: number; message?: string | undefined }
}

function secondsOf([seconds, nanos]: readonly [number, number]): number {
  return seconds + Math.round(nanos / 1e3) / 1e6
}

/** A span the OpenTelemetry SDK ended. */
export function spanFromReadable(span: ReadableSpanLike): SpanRecord {
  const attributes = new Map<string, AttributeValue>()
  for (const [key, value] of Object.entries(span.attributes)) {
    if (value !== undefined && value !== null) attributes.set(key, value as AttributeValue)
  }
  const { traceId, spanId } = span.spanContext()
  const start = secondsOf(span.startTime)
  return {
    traceId,
    spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    name: span.name,
    start,
    end: Math.max(start, secondsOf(span.endTime)),
    attributes,
    status: { isError: span.status.code === STATUS_ERROR, message: span.status.message ?? null },
  }
}
