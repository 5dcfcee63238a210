/**
 * What a run cost, estimated from a price table: each turn is priced from
 * its model (the longest matching prefix in the table) and its tokens. The
 * one estimator behind `assertCostUnder` and `reagent-flow get --prices`,
 * with the one check of a price table (parseModelCosts) and of a limit
 * (exceedsLimit).
 */
import { readTokens } from './tokens.js'
import type { LlmCall, Trace, Turn } from './types.js'

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

/** A price or a limit: a finite number >= 0. */
export function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

/** What is wrong with a price table, for the caller to put in its own words. */
export type PriceTableProblem =
  /** The table is not an object of model-name prefixes. */
  | { kind: 'table'; value: unknown }
  /** The entry of `prefix` is not an object. */
  | { kind: 'entry'; prefix: string; entry: unknown }
  /** The `field` price of `prefix` is not an amount (see isAmount). */
  | { kind: 'price'; prefix: string; entry: Record<string, unknown>; field: keyof ModelCost }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * A price table (model-name prefixes to USD per 1M input and output tokens)
 * as the estimator takes it. The first thing wrong with it goes to
 * `complain`, which throws the caller's error.
 */
export function parseModelCosts(value: unknown, complain: (problem: PriceTableProblem) => never): Map<string, ModelCost> {
  if (!isPlainObject(value)) complain({ kind: 'table', value })
  const costs = new Map<string, ModelCost>()
  for (const [prefix, entry] of Object.entries(value)) {
    if (!isPlainObject(entry)) complain({ kind: 'entry', prefix, entry })
    const { input, output } = entry
    if (!isAmount(input)) complain({ kind: 'price', prefix, entry, field: 'input' })
    if (!isAmount(output)) complain({ kind: 'price', prefix, entry, field: 'output' })
    costs.set(prefix, { input, output })
  }
  return costs
}

/** Whether `actual` is over `limit`. Sums of per-token prices carry float noise (0.0012 + 0.00052 > 0.00172): a billionth over is not an overrun. */
export function exceedsLimit(actual: number, limit: number): boolean {
  return actual - limit > 1e-9
}

type Price = { prefix: string; cost: ModelCost }

/**
 * Prices found, per table and model: a run prices the same few models on
 * every call (a run's limits price each call as it is recorded). Tables are
 * not changed once built (see prices.ts), so a found price stays right.
 */
const found = new WeakMap<ReadonlyMap<string, ModelCost>, Map<string, Price | null>>()

/** The price of `model`: the entry with the longest key that `model` starts with. */
export function priceOf(model: string, costs: ReadonlyMap<string, ModelCost>): Price | undefined {
  let byModel = found.get(costs)
  if (byModel === undefined) found.set(costs, (byModel = new Map()))
  const known = byModel.get(model)
  if (known !== undefined) return known ?? undefined
  let best: Price | undefined
  for (const [prefix, cost] of costs) {
    if (model.startsWith(prefix) && prefix.length > (best?.prefix.length ?? -1)) best = { prefix, cost }
  }
  // Bounded: a table meets a handful of models, but a hostile trace could name millions.
  if (byModel.size < 1024) byModel.set(model, best ?? null)
  return best
}

/** The price of one LLM call, or why it has none: `no model`, `no token_usage`, `no price for model "x"`. */
export function priceCall(
  call: LlmCall,
  costs: ReadonlyMap<string, ModelCost>,
): { usd: number; model: string; prefix: string; input: number; output: number } | { skipped: string } {
  const { model, token_usage: usage } = call
  if (model === null || model === undefined) return { skipped: 'no model' }
  if (usage === null || usage === undefined) return { skipped: 'no token_usage' }
  const price = priceOf(model, costs)
  if (price === undefined) return { skipped: `no price for model "${model}"` }
  const { input, output } = readTokens(usage)
  const usd = (input / 1_000_000) * price.cost.input + (output / 1_000_000) * price.cost.output
  return { usd, model, prefix: price.prefix, input, output }
}

/** Prices every turn of `trace` that has a model, token usage and a price. */
export function estimateCost(trace: Trace, costs: ReadonlyMap<string, ModelCost>): CostEstimate {
  const estimate: CostEstimate = { usd: 0, priced: [], skipped: [], top: undefined }
  for (const turn of trace.turns) {
    const priced = priceCall(turn.llm_call, costs)
    if ('skipped' in priced) {
      estimate.skipped.push(`turn ${turn.index} (${priced.skipped})`)
      continue
    }
    const turnCost = { turn, ...priced }
    estimate.usd += priced.usd
    estimate.priced.push(turnCost)
    if (estimate.top === undefined || priced.usd > estimate.top.usd) estimate.top = turnCost
  }
  return estimate
}

/** `$0.05`, and `$0.0034` for sub-cent amounts (where reagent-flow 0.5 shows `$0.00`). */
export function formatUsd(amount: number): string {
  return `$${amount >= 0.01 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`
}
