import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** `logToolResult` was given a tool name with two or more pending calls and no call id. */
export class AmbiguousToolCallError extends ReagentError {
  override name = 'AmbiguousToolCallError' as const
  readonly toolName: string
  readonly callIds: readonly string[]

  constructor(toolName: string, callIds: readonly string[]) {
    super(
      `Cannot tell which call of "${toolName}" this result belongs to: ${callIds.length} calls are pending ` +
        `(${callIds.map((id) => `"${id}"`).join(', ')}). Pass { callId } to logToolResult to pick one.`,
    )
    this.toolName = toolName
    this.callIds = callIds
  }
}

/**
 * True for an `AmbiguousToolCallError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isAmbiguousToolCallError(value: unknown): value is AmbiguousToolCallError {
  return isReagentErrorNamed(value, 'AmbiguousToolCallError')
}
