/**
 * A run's cost from a price table file (`--prices`), and the budgets its
 * metadata sets (`budget_usd`, `budget_seconds`), checked.
 */
import { UsageError } from '../errors.js'
import { readTextOrNull } from '../storage.js'
import { estimateCost, exceedsLimit, isAmount, parseModelCosts, type ModelCost } from '../trace/cost.js'
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

const PRICE_EXAMPLE = '{ "gpt-4o": { "input": 2.5, "output": 10 } }'

/**
 * Reads a price table: model-name prefixes to USD per 1M input and output
 * tokens, as `assertCostUnder`'s `modelCosts`. Throws `UsageError` naming the
 * file and the entry at fault.
 */
export function readPriceTable(file: string): Map<string, ModelCost> {
  const text = readTextOrNull(file)
  if (text === null) throw new UsageError(`--prices ${file}: no such file. It holds USD per 1M tokens per model prefix: ${PRICE_EXAMPLE}`)
  let table: unknown
  try {
    table = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--prices ${file}: not JSON (${(error as Error).message}). Expected ${PRICE_EXAMPLE}`)
  }
  return parseModelCosts(table, (problem) => {
    if (problem.kind === 'table') throw new UsageError(`--prices ${file}: must be an object of model prefixes, like ${PRICE_EXAMPLE}`)
    throw new UsageError(
      `--prices ${file}: ${JSON.stringify(problem.prefix)} must have "input" and "output" as numbers >= 0 (USD per 1M tokens); got ${JSON.stringify(problem.entry)}`,
    )
  })
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
export function checkBudgets(fields: TraceFields, cost: CostOutput | null, pricesGiven: boolean): BudgetCheck[] {
  const elapsed = durationMs(fields)
  const checks = [
    check('budget_usd', fields.metadata.budget_usd, cost?.usd ?? null, pricesGiven ? 'no turn could be priced' : 'not checked: pass --prices <file>'),
    check('budget_seconds', fields.metadata.budget_seconds, elapsed === null ? null : elapsed / 1000, 'the run has no end time'),
  ]
  return checks.filter((item): item is BudgetCheck => item !== undefined)
}
