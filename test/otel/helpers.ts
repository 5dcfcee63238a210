/**
 * For the OpenTelemetry tests: OpenTelemetry's own OTLP definitions (the
 * protobuf types generated from opentelemetry-proto, as
 * @opentelemetry/otlp-transformer ships them) to decode what we export, and
 * the real SDK (BasicTracerProvider, JsonTraceSerializer) to write span files.
 */
import { createRequire } from 'node:module'
import { context, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api'
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base'

interface ProtoType {
  verify(message: unknown): string | null
  fromObject(object: unknown): unknown
  encode(message: unknown): { finish(): Uint8Array }
  decode(bytes: Uint8Array): unknown
  toObject(message: unknown, options: Record<string, unknown>): unknown
}

const require = createRequire(import.meta.url)
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } }
}
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest

const ID_KEYS = new Set(['traceId', 'spanId', 'parentSpanId'])

/** OTLP/JSON's one departure from proto3 JSON: ids are hex, where protobuf has bytes. */
function mapIds(value: unknown, convert: (id: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapIds(item, convert))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, ID_KEYS.has(key) && typeof item === 'string' ? convert(item) : mapIds(item, convert)]),
  )
}

/**
 * Decodes an OTLP/JSON request with the OTLP definitions: checked against the
 * message types, encoded to protobuf and decoded back, then written as
 * OTLP/JSON again (64-bit integers as decimal strings, as proto3 JSON has
 * them). A field the definitions do not have, or of the wrong type, fails or
 * goes missing in what comes back.
 */
export function decodeWithOtlpDefinitions(request: unknown): unknown {
  const binary = mapIds(request, (id) => Buffer.from(id, 'hex').toString('base64'))
  // verify() takes 64-bit integers as numbers or Longs only (fromObject also reads decimal strings): a number of the same type for the check.
  const problem = ExportTraceServiceRequest.verify(
    JSON.parse(JSON.stringify(binary, (key, value: unknown) => (key.endsWith('UnixNano') ? Number(value) : value))),
  )
  if (problem !== null) throw new Error(`not an ExportTraceServiceRequest: ${problem}`)
  const bytes = ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(binary)).finish()
  const back = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(bytes), { longs: String, bytes: Array, enums: Number })
  return mapIds(back, (id) => id)
}

/** Byte arrays (as `toObject` gives ids back) as hex. */
export function hexIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIds)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, ID_KEYS.has(key) && Array.isArray(item) ? Buffer.from(item as number[]).toString('hex') : hexIds(item)]),
  )
}

/** `request` with integer attribute values as decimal strings, as a decoded request has them. */
export function withStringInts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withStringInts)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'intValue' ? String(item) : withStringInts(item)]))
}

export interface SpanFileBuilder {
  readonly tracer: Tracer
  /** Starts a span, a child of `parent` when given. */
  start(name: string, attributes: Attributes, parent?: Span, startTime?: number): Span
  /** The ended spans as the SDK's JSON serializer writes an OTLP/HTTP request. */
  otlpJson(): unknown
}

/** A real tracer whose ended spans are kept in memory (plus any extra processors). */
export function spanFile(...processors: SpanProcessor[]): SpanFileBuilder {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), ...processors] })
  const tracer = provider.getTracer('reagent-flow-tests', '1.0.0')
  return {
    tracer,
    start: (name, attributes, parent, startTime) =>
      tracer.startSpan(
        name,
        { attributes, ...(startTime === undefined ? {} : { startTime }) },
        parent === undefined ? context.active() : trace.setSpan(context.active(), parent),
      ),
    otlpJson: () => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()))),
  }
}
