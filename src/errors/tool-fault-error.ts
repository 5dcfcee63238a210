import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * The error an injected tool fault (the `faults` session option) throws in
 * place of running the tool. Its message is the one the fault names (`card
 * declined`), since the agent, and the model it shows the error to, should
 * see what a failing tool would say; `tool` and `injected` tell it apart.
 */
export class ToolFaultError extends ReagentError {
  override name = 'ToolFaultError' as const
  readonly tool: string
  readonly injected = true as const

  constructor(tool: string, message: string) {
    super(message)
    this.tool = tool
  }
}

/**
 * True for a `ToolFaultError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isToolFaultError(value: unknown): value is ToolFaultError {
  return isReagentErrorNamed(value, 'ToolFaultError')
}
