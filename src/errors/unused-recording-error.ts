import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** `strict: true`: a replayed session left recorded calls unused (the agent no longer makes them). */
export class UnusedRecordingError extends ReagentError {
  override name = 'UnusedRecordingError' as const
  readonly sessionName: string
  readonly recordingPath: string
  /** The endpoints of the unused calls, one per call, in recorded order. */
  readonly unused: readonly string[]

  constructor(message: string, fields: { sessionName: string; recordingPath: string; unused: readonly string[] }) {
    super(message)
    this.sessionName = fields.sessionName
    this.recordingPath = fields.recordingPath
    this.unused = fields.unused
  }
}

/**
 * True for an `UnusedRecordingError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isUnusedRecordingError(value: unknown): value is UnusedRecordingError {
  return isReagentErrorNamed(value, 'UnusedRecordingError')
}
