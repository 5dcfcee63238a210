import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A conversation's simulated user could not go on: its model failed or gave
 * neither a message nor the end of the conversation, or its script returned
 * something that is neither. The conversation ends as failed with it, its
 * transcript kept on the trace; `cause` holds what the model threw.
 */
export class SimulatedUserError extends ReagentError {
  override name = 'SimulatedUserError' as const
  /** The conversation's session. */
  readonly sessionName: string
  /** The exchange the user's message was for (1 for the first). */
  readonly exchange: number

  constructor(message: string, fields: { sessionName: string; exchange: number; cause?: unknown }) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause })
    this.sessionName = fields.sessionName
    this.exchange = fields.exchange
  }
}

/**
 * True for a `SimulatedUserError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isSimulatedUserError(value: unknown): value is SimulatedUserError {
  return isReagentErrorNamed(value, 'SimulatedUserError')
}
