import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** An OTLP/HTTP endpoint did not take the exported spans. */
export class OtlpExportError extends ReagentError {
  override name = 'OtlpExportError' as const
  readonly url: string
  /** The HTTP status, or null when no response came (connection refused, timeout). */
  readonly status: number | null

  constructor(url: string, status: number | null, detail: string, options?: ErrorOptions) {
    super(
      `Could not send the spans to ${url}: ${detail}. ` +
        `Check that an OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger, Tempo, Phoenix, Langfuse) listens there, or write them to a file with --out.`,
      options,
    )
    this.url = url
    this.status = status
  }
}

/**
 * True for an `OtlpExportError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isOtlpExportError(value: unknown): value is OtlpExportError {
  return isReagentErrorNamed(value, 'OtlpExportError')
}
