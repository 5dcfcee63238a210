import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A span file that is not OTLP/JSON, or whose spans reagent-flow cannot read as an agent's run. */
export class OtlpFormatError extends ReagentError {
  override name = 'OtlpFormatError' as const
  /** The file (or "spans" for spans handed over in memory). */
  readonly source: string
  /** Where in the document, as a JSON path (`resourceSpans[0].scopeSpans[1].spans[3].traceId`); empty for the whole document. */
  readonly jsonPath: string

  constructor(source: string, jsonPath: string, detail: string) {
    super(`${source}${jsonPath === '' ? '' : ` at ${jsonPath}`}: ${detail}`)
    this.source = source
    this.jsonPath = jsonPath
  }
}

/**
 * True for an `OtlpFormatError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isOtlpFormatError(value: unknown): value is OtlpFormatError {
  return isReagentErrorNamed(value, 'OtlpFormatError')
}
