/**
 * A run's cost from the price table (trace/prices.ts, with `--prices` over
 * it), and the budgets its metadata sets (`budget_usd`, `budget_seconds`), checked.
 */
import { estimateCost, exceedsLimit, isAmount, type ModelCost } from '../trace/cost.js'
import { durationMs } from '../trace/facts.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'

/** The cost in `get --json`. */
export interface CostOutput {
  usd: number
  priced_turns: number
  /** Turns that could not be priced, in words: `turn 2 (no token_usage)`. */
  unpriced: string[]
}

/** A budget from the run's metadata, checked. `actual` and `over` are null when it could not be checked (`note` says why). */
export interface BudgetCheck {
  key: 'budget_usd' | 'budget_seconds'
  limit: number
  actual: number | null
  over: boolean | null
  note: string | null
}

/** The run's estimated cost, or null when no turn could be priced. */
export function costOf(trace: Trace, costs: ReadonlyMap<string, ModelCost>): CostOutput | null {
  const estimate = estimateCost(trace, costs)
  if (estimate.priced.length === 0) return null
  return { usd: estimate.usd, priced_turns: estimate.priced.length, unpriced: estimate.skipped }
}

function check(key: BudgetCheck['key'], limit: unknown, actual: number | null, whyUnknown: string): BudgetCheck | undefined {
  if (limit === undefined || limit === null) return undefined
  if (!isAmount(limit)) return { key, limit: Number.NaN, actual: null, over: null, note: `metadata.${key} is not a number >= 0: ${JSON.stringify(limit)}` }
  if (actual === null) return { key, limit, actual: null, over: null, note: whyUnknown }
  return { key, limit, actual, over: exceedsLimit(actual, limit), note: null }
}

/** The budgets in the run's metadata, checked against its cost (when known) and elapsed time. */
export function checkBudgets(fields: TraceFields, cost: CostOutput | null): BudgetCheck[] {
  const elapsed = durationMs(fields)
  const checks = [
    check('budget_usd', fields.metadata.budget_usd, cost?.usd ?? null, 'no turn could be priced: pass --prices <file> with its models'),
    check('budget_seconds', fields.metadata.budget_seconds, elapsed === null ? null : elapsed / 1000, 'the run has no end time'),
  ]
  return checks.filter((item): item is BudgetCheck => item !== undefined)
}
