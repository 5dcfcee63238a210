import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A trace or golden baseline that was asked for does not exist on disk. */
export class TraceNotFoundError extends ReagentError {
  override name = 'TraceNotFoundError' as const
  readonly path: string
  readonly traceName: string | undefined

  constructor(path: string, hint: string, traceName?: string) {
    super(`No trace file at ${path}. ${hint}`)
    this.path = path
    this.traceName = traceName
  }
}

/**
 * True for a `TraceNotFoundError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isTraceNotFoundError(value: unknown): value is TraceNotFoundError {
  return isReagentErrorNamed(value, 'TraceNotFoundError')
}
