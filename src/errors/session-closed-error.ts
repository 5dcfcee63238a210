import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A `log*` call reached a session that has already been finalised. */
export class SessionClosedError extends ReagentError {
  override name = 'SessionClosedError' as const
  readonly sessionName: string
  readonly operation: string

  constructor(sessionName: string, operation: string) {
    super(
      `Cannot ${operation} on session "${sessionName}": it is closed and its trace has been finalised. ` +
        `Record inside the session callback, and await every tool or model call before the callback returns.`,
    )
    this.sessionName = sessionName
    this.operation = operation
  }
}

/**
 * True for a `SessionClosedError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isSessionClosedError(value: unknown): value is SessionClosedError {
  return isReagentErrorNamed(value, 'SessionClosedError')
}
