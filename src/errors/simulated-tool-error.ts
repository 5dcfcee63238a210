import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A call of a `simulatedTool` whose answer broke its result schema: the
 * model's, after being asked once more with what was wrong, or a function's.
 * The call fails with it, as a real tool's failure would (recorded as the
 * call's error in the trace); `problem` is what was wrong with the last answer.
 */
export class SimulatedToolError extends ReagentError {
  override name = 'SimulatedToolError' as const
  readonly tool: string
  readonly problem: string

  /** `message` says what happened and how to fix it; `problem` is the schema's complaint alone. */
  constructor(tool: string, problem: string, message: string) {
    super(message)
    this.tool = tool
    this.problem = problem
  }
}

/**
 * True for a `SimulatedToolError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isSimulatedToolError(value: unknown): value is SimulatedToolError {
  return isReagentErrorNamed(value, 'SimulatedToolError')
}
