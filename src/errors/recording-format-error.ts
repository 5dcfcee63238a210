import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A recording file that is not one (hand-edited, cut short, another tool's). */
export class RecordingFormatError extends ReagentError {
  override name = 'RecordingFormatError' as const
  readonly path: string

  constructor(path: string, problem: string) {
    super(`${path} is not a readable reagent-flow recording: ${problem}. Record it again (REAGENT_REPLAY=record) or delete it.`)
    this.path = path
  }
}

/**
 * True for a `RecordingFormatError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isRecordingFormatError(value: unknown): value is RecordingFormatError {
  return isReagentErrorNamed(value, 'RecordingFormatError')
}
