import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A call in `replay` mode that the recording cannot answer: the model is
 * never called instead. The message names the step, the nearest recorded
 * request and the difference between the two.
 */
export class ReplayMissError extends ReagentError {
  override name = 'ReplayMissError' as const
  readonly sessionName: string
  /** The endpoint called: `openai POST /chat/completions`. */
  readonly endpoint: string
  /** Which model call of the session it was (1 for the first). */
  readonly step: number
  readonly recordingPath: string
  /** In a conversation (`reagent-flow/simulate`): the exchange the call was made for (1 for the first); else undefined. */
  readonly exchange: number | undefined

  constructor(message: string, fields: { sessionName: string; endpoint: string; step: number; recordingPath: string; exchange?: number }) {
    super(message)
    this.sessionName = fields.sessionName
    this.endpoint = fields.endpoint
    this.step = fields.step
    this.recordingPath = fields.recordingPath
    this.exchange = fields.exchange
  }
}

/**
 * True for a `ReplayMissError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isReplayMissError(value: unknown): value is ReplayMissError {
  return isReagentErrorNamed(value, 'ReplayMissError')
}
