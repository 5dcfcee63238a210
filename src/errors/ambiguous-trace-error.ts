import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A trace name matches several trace files, so it does not say which one is meant. */
export class AmbiguousTraceError extends ReagentError {
  override name = 'AmbiguousTraceError' as const
  readonly traceName: string
  readonly files: readonly string[]

  constructor(traceName: string, files: readonly string[]) {
    super(
      `The name "${traceName}" matches ${files.length} trace files (${files.join(', ')}). ` +
        `Pass the trace_id of the one you mean instead, or remove the copies.`,
    )
    this.traceName = traceName
    this.files = files
  }
}

/**
 * True for an `AmbiguousTraceError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isAmbiguousTraceError(value: unknown): value is AmbiguousTraceError {
  return isReagentErrorNamed(value, 'AmbiguousTraceError')
}
