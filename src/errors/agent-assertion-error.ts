import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * An assertion about a trace failed. Its message is the agent stack trace (or
 * the formatted diff for baseline comparisons). The name is `AssertionError`
 * so that test runners report it as a failed expectation, not as a crash, and
 * `actual`/`expected` (when set) let them draw their own diff.
 */
export class AgentAssertionError extends ReagentError {
  override name = 'AssertionError' as const
  /** The name of the trace the assertion was about. */
  readonly traceName: string
  /** The failed assertion in one line, e.g. `"lookup" was never called (3 turns, 2 tool calls)`. */
  readonly assertion: string
  readonly actual: unknown
  readonly expected: unknown
  /** Whether `actual` and `expected` are worth a diff (vitest reads this). */
  readonly showDiff: boolean

  constructor(message: string, details: { traceName: string; assertion: string; actual?: unknown; expected?: unknown }) {
    super(message)
    this.traceName = details.traceName
    this.assertion = details.assertion
    this.actual = details.actual
    this.expected = details.expected
    this.showDiff = 'actual' in details && 'expected' in details
  }
}

/**
 * True for an `AgentAssertionError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` (`AssertionError`) and the `ReagentError` brand, not `instanceof`).
 */
export function isAgentAssertionError(value: unknown): value is AgentAssertionError {
  return isReagentErrorNamed(value, 'AssertionError')
}
