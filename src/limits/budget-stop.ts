/** Whether a run was stopped by a limit, its own or a sub-agent's: the stop its session is closed as cancelled with. */
import { isBudgetExceededError, type BudgetExceededError } from '../errors/budget-exceeded-error.js'
import type { RunGuard } from './run-guard.js'

/**
 * By name, so a stop thrown by another copy of reagent-flow (a nested
 * install) counts too. Never throws: the value may be anything an agent
 * threw (a revoked Proxy refuses every look).
 */
export function isBudgetStop(error: unknown): error is BudgetExceededError {
  try {
    return isBudgetExceededError(error) && typeof (error as { reason?: unknown }).reason === 'string'
  } catch {
    return false
  }
}

/**
 * The stop of a closing run: its guard's first stop (the agent may have
 * caught it and gone on), else the `BudgetExceededError` its function threw
 * (a sub-agent with limits of its own stopped, and the error came up).
 */
export function budgetStopOf(guard: RunGuard | undefined, thrown: unknown): BudgetExceededError | undefined {
  return guard?.stoppedBy ?? (isBudgetStop(thrown) ? thrown : undefined)
}
