/**
 * Matchers about what a run used: toStayWithinTokens (assertTotalTokensUnder)
 * and toCostLessThan (the cost check of assertCostUnder, on the built-in
 * price table with the test's `prices` added over it).
 *
 * A run whose usage cannot be measured (no turn recorded tokens, or none
 * could be priced) fails both ways: `.not` must not pass on nothing either.
 */
import type { MatcherState } from 'vitest'
import { requireLimit, requireOptions } from '../assert/arguments.js'
import { assertTotalTokensUnder, checkCost, checkModelCosts, pricesOver, type PriceTable, type TokenOptions } from '../assert/usage.js'
import { estimateCost, formatUsd, type ModelCost } from '../trace/cost.js'
import { PRICES_ENV } from '../trace/prices.js'
import { sumTokens } from '../trace/tokens.js'
import { plural } from '../report/format-value.js'
import { describeFailure, outcomeOf, receivedTrace, underMatcherName, type MatcherOutcome } from './outcome.js'

export function toStayWithinTokens(this: MatcherState, received: unknown, n: number, options: TokenOptions = {}): MatcherOutcome {
  const name = 'toStayWithinTokens'
  const trace = receivedTrace(name, received)
  const check = (): void => underMatcherName(name, 'assertTotalTokensUnder', () => assertTotalTokensUnder(trace, n, options))
  const used = sumTokens(trace)
  // Nothing measured: the check fails with "Cannot verify", and so does its opposite.
  if (this.isNot && used.measuredTurns === 0 && trace.turns.length > 0 && options?.allowMissing !== true) check()
  return outcomeOf(check, () => {
    const total = used.input + used.output
    return describeFailure(trace, `expected the run to use more than ${n} tokens, but it used ${total} (${used.input} in / ${used.output} out)`, {
      causes: [`${plural(used.measuredTurns, 'turn')} of ${trace.turns.length} recorded token usage`],
    })
  })
}

/** Options of `toCostLessThan`. */
export interface CostMatcherOptions {
  /**
   * Prices added over the built-in table (and a `REAGENT_PRICES` file), as
   * `reagent-flow get --prices` adds them: model-name prefixes to USD per 1M
   * tokens; the longest matching prefix wins. Default: none.
   * @example { prices: { 'my-fine-tune': { input: 3, output: 12 } } }
   */
  prices?: Readonly<Record<string, ModelCost>>
  /** Pass when no turn could be priced (instead of failing: the limit could not be checked). Default: false. */
  allowUnpriced?: boolean
}

export function toCostLessThan(this: MatcherState, received: unknown, usd: number, options: CostMatcherOptions = {}): MatcherOutcome {
  const name = 'toCostLessThan'
  const trace = receivedTrace(name, received)
  const limit = requireLimit(name, 'usd', usd)
  const checked = requireOptions(name, options, ['prices', 'allowUnpriced'])
  const added = checked.prices === undefined ? undefined : checkModelCosts(name, 'prices', checked.prices)
  const table: PriceTable = {
    costs: pricesOver(added),
    fix: `Add your models' prices with { prices: { 'model-prefix': { input, output } } } (USD per 1M tokens) or a ${PRICES_ENV} file, or pass allowUnpriced: true.`,
  }
  const allowUnpriced = checked.allowUnpriced === true
  const check = (): void => checkCost(name, trace, limit, table, allowUnpriced)
  const estimate = estimateCost(trace, table.costs)
  if (this.isNot && estimate.top === undefined && trace.turns.length > 0 && !allowUnpriced) check()
  return outcomeOf(check, () =>
    describeFailure(trace, `expected the run to cost more than ${formatUsd(limit)}, but its estimated cost is ${formatUsd(estimate.usd)}`, {
      causes: [
        `${estimate.priced.length} of ${plural(trace.turns.length, 'turn')} priced${estimate.skipped.length === 0 ? '' : `; not priced: ${estimate.skipped.join(', ')}`}`,
      ],
    }),
  )
}
