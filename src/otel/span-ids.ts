/**
 * Span and trace ids made from the trace itself, so exporting the same run
 * twice sends the same ids (a backend deduplicates, a diff of two exports
 * shows only what changed): the first bytes of a SHA-256 of where the span
 * sits (the root run's trace_id, the run's trace_id, the part of it).
 */
import { createHash } from 'node:crypto'

function digest(parts: readonly (string | number)[], hexDigits: number): string {
  const hex = createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, hexDigits)
  // An all-zero id is invalid in OTLP; a SHA-256 prefix of zeros is as good as impossible, but never send one.
  return /^0+$/.test(hex) ? `${'0'.repeat(hexDigits - 1)}1` : hex
}

/** The OpenTelemetry trace id (32 hex digits) of an export rooted at the run `rootTraceId`. */
export function otelTraceId(rootTraceId: string): string {
  return digest(['reagent-flow trace', rootTraceId], 32)
}

/** A span id (16 hex digits) of a part of run `traceId`: `run`, `turn` n, `tool` n m. */
export function otelSpanId(traceId: string, ...part: readonly (string | number)[]): string {
  return digest(['reagent-flow span', traceId, ...part], 16)
}
