/**
 * What a run's trace used, per model: a few hundred bytes a store keeps on
 * the run (taken when the trace arrives), so `run.get` prices a run of any
 * size without reading its turns, with whatever price table the server has
 * now. Priced, it gives what `estimateCost` gives on the whole trace.
 */
import { priceOf, type ModelCost } from '../trace/cost.js'
import { readTokens } from '../trace/tokens.js'
import type { Trace } from '../trace/types.js'

export interface UsageSummary {
  turns: number
  /** Turns with a model and token usage, summed per model name. */
  models: Record<string, { turns: number; input: number; output: number }>
  /** Turns without a model (or with a name holding U+0000) or without token usage: they cannot be priced. */
  unmeasured: number
}

export function summarizeUsage(trace: Pick<Trace, 'turns'>): UsageSummary {
  const summary: UsageSummary = { turns: trace.turns.length, models: Object.create(null) as UsageSummary['models'], unmeasured: 0 }
  for (const turn of trace.turns) {
    const { model, token_usage: usage } = turn.llm_call
    // A name holding U+0000 names no model, and PostgreSQL's jsonb could not keep it as a key.
    if (typeof model !== 'string' || model.includes('\u0000') || usage === null || usage === undefined) {
      summary.unmeasured += 1
      continue
    }
    const { input, output } = readTokens(usage)
    const entry = (summary.models[model] ??= { turns: 0, input: 0, output: 0 })
    entry.turns += 1
    entry.input += input
    entry.output += output
  }
  return summary
}

export interface PricedUsage {
  turns: number
  /** Turns the table could not price (no model, no usage, or a model it does not know): each costs 0. */
  unpriced_turns: number
  cost_usd: number
}

export function priceUsage(summary: UsageSummary | null, table: ReadonlyMap<string, ModelCost>): PricedUsage {
  if (summary === null) return { turns: 0, unpriced_turns: 0, cost_usd: 0 }
  let cost = 0
  let unpriced = summary.unmeasured
  for (const [model, used] of Object.entries(summary.models)) {
    const price = priceOf(model, table)
    if (price === undefined) unpriced += used.turns
    else cost += (used.input / 1_000_000) * price.cost.input + (used.output / 1_000_000) * price.cost.output
  }
  return { turns: summary.turns, unpriced_turns: unpriced, cost_usd: cost }
}
