import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * The `reagent-flow` command was called wrongly: an unknown command or
 * option, a bad option value, a missing argument. The CLI prints the message
 * on one line and exits with code 2.
 */
export class UsageError extends ReagentError {
  override name = 'UsageError' as const
}

/**
 * True for a `UsageError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isUsageError(value: unknown): value is UsageError {
  return isReagentErrorNamed(value, 'UsageError')
}
