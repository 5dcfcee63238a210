/**
 * What a run cost, estimated from a price table: each turn is priced from
 * its model (the longest matching prefix in the table) and its tokens. The
 * one estimator behind `assertCostUnder` and `reagent-flow get --prices`.
 */
import { readTokens } from './tokens.js'
import type { Trace, Turn } from './types.js'

/** USD per 1 million tokens. */
export interface ModelCost {
  /** USD per 1M input (prompt) tokens. @example 2.5 */
  input: number
  /** USD per 1M output (completion) tokens. @example 10 */
  output: number
}

export interface TurnCost {
  turn: Turn
  usd: number
  model: string
  /** The price table key the model was priced by. */
  prefix: string
  input: number
  output: number
}

export interface CostEstimate {
  usd: number
  /** The turns that could be priced, in order. */
  priced: TurnCost[]
  /** The turns that could not, each in words: `turn 2 (no token_usage)`. */
  skipped: string[]
  /** The costliest turn. */
  top: TurnCost | undefined
}

/** The price of `model`: the entry with the longest key that `model` starts with. */
export function priceOf(model: string, costs: ReadonlyMap<string, ModelCost>): { prefix: string; cost: ModelCost } | undefined {
  let best: { prefix: string; cost: ModelCost } | undefined
  for (const [prefix, cost] of costs) {
    if (model.startsWith(prefix) && prefix.length > (best?.prefix.length ?? -1)) best = { prefix, cost }
  }
  return best
}

/** Prices every turn of `trace` that has a model, token usage and a price. */
export function estimateCost(trace: Trace, costs: ReadonlyMap<string, ModelCost>): CostEstimate {
  const estimate: CostEstimate = { usd: 0, priced: [], skipped: [], top: undefined }
  for (const turn of trace.turns) {
    const { model, token_usage: usage } = turn.llm_call
    if (model === null || model === undefined) {
      estimate.skipped.push(`turn ${turn.index} (no model)`)
      continue
    }
    if (usage === null || usage === undefined) {
      estimate.skipped.push(`turn ${turn.index} (no token_usage)`)
      continue
    }
    const price = priceOf(model, costs)
    if (price === undefined) {
      estimate.skipped.push(`turn ${turn.index} (model "${model}" matches no modelCosts prefix)`)
      continue
    }
    const { input, output } = readTokens(usage)
    const usd = (input / 1_000_000) * price.cost.input + (output / 1_000_000) * price.cost.output
    const turnCost = { turn, usd, model, prefix: price.prefix, input, output }
    estimate.usd += usd
    estimate.priced.push(turnCost)
    if (estimate.top === undefined || usd > estimate.top.usd) estimate.top = turnCost
  }
  return estimate
}

/** `$0.05`, and `$0.0034` for sub-cent amounts (where reagent-flow 0.5 shows `$0.00`). */
export function formatUsd(amount: number): string {
  return `$${amount >= 0.01 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`
}
