/** The stop a run past its limits is closed as cancelled with. */
import { isBudgetStop, type BudgetExceededError } from '../errors/budget-exceeded-error.js'
import type { RunGuard } from './run-guard.js'

/**
 * The stop of a closing run: its guard's first stop (the agent may have
 * caught it and gone on), else the `BudgetExceededError` its function threw
 * (a sub-agent with limits of its own stopped, and the error came up).
 */
export function budgetStopOf(guard: RunGuard | undefined, thrown: unknown): BudgetExceededError | undefined {
  return guard?.stoppedBy ?? (isBudgetStop(thrown) ? thrown : undefined)
}
