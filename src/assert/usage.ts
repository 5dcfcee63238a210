/**
 * Token and cost budgets. Turns without the data needed are skipped with one
 * REAGENT_ASSERTION warning per assertion naming them; when no turn at all
 * can be counted the assertion fails instead of passing on nothing, unless
 * the test opts out (`allowMissing`, `allowUnpriced`).
 */
import { estimateCost, exceedsLimit, formatUsd, parseModelCosts, type ModelCost } from '../trace/cost.js'
import { defaultPriceTable } from '../storage/index.js'
import { PRICES_ENV } from '../trace/prices.js'
import { readTokens } from '../trace/tokens.js'
import type { Trace, Turn } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { notALimit, notAnObject, requireLimit, requireOptions, toTrace, type TraceSource } from './arguments.js'
import { fail } from './fail.js'
import { formatApart } from './render.js'

export type { ModelCost } from '../trace/cost.js'

function turnList(turns: readonly Turn[]): string {
  return turns.map((turn) => turn.index).join(', ')
}

export interface TokenOptions {
  /** Pass when no turn recorded token usage (instead of failing: the limit could not be checked). Default: false. @example { allowMissing: true } */
  allowMissing?: boolean
}

/**
 * Passes when input + output tokens over all turns are at most `n`. Reads
 * `input_tokens`/`output_tokens`, or `prompt_tokens`/`completion_tokens`.
 * @example assertTotalTokensUnder(trace, 4_000)
 */
export function assertTotalTokensUnder(source: TraceSource, n: number, options: TokenOptions = {}): void {
  const fn = 'assertTotalTokensUnder'
  const trace = toTrace(fn, source)
  const limit = requireLimit(fn, 'n', n)
  const allowMissing = requireOptions(fn, options, ['allowMissing']).allowMissing === true
  let total = 0
  let top: { turn: Turn; input: number; output: number } | undefined
  const missing: Turn[] = []
  for (const turn of trace.turns) {
    const usage = turn.llm_call.token_usage
    if (usage === null || usage === undefined) {
      missing.push(turn)
      continue
    }
    const { input, output } = readTokens(usage)
    total += input + output
    if (top === undefined || input + output > top.input + top.output) top = { turn, input, output }
  }
  if (missing.length > 0) {
    warn('REAGENT_ASSERTION', `${fn} on "${trace.name}": turn(s) ${turnList(missing)} have no token_usage data and were skipped in the token count.`)
  }
  if (top === undefined && trace.turns.length > 0 && !allowMissing) {
    fail(trace, `Cannot verify token limit: no token data recorded in ${trace.turns.length} turn(s). Fix instrumentation or pass allowMissing: true.`, {
      causes: ['no LLM call recorded token_usage: record tokenUsage in logLlmCall, or use an adapter that does'],
    })
  }
  if (total <= limit) return
  fail(trace, `Total tokens ${total} exceeds limit of ${limit}`, {
    causes: [top && `turn ${top.turn.index} used the most tokens: ${top.input + top.output} (${top.input} in / ${top.output} out)`],
    facts: [missing.length > 0 ? `turn(s) ${turnList(missing)} have no token_usage and were not counted` : undefined],
  })
}

export interface CostOptions {
  /** The most the run may cost, in USD. Required. @example 0.05 */
  usd: number
  /**
   * Prices per model-name prefix, USD per 1M tokens; the longest matching prefix wins.
   * Default: the built-in table of OpenAI and Anthropic models (with the file named by
   * `REAGENT_PRICES` over it). Given, it is the whole table.
   * @example { 'gpt-4o': { input: 2.5, output: 10 } }
   */
  modelCosts?: Readonly<Record<string, ModelCost>>
  /** Pass when no turn could be priced (instead of failing: the limit could not be checked). Default: false. @example { allowUnpriced: true } */
  allowUnpriced?: boolean
}

/** A price table given by a test (`modelCosts`, `prices`), each mistake a TypeError or RangeError naming `argument` and the entry. */
export function checkModelCosts(fn: string, argument: string, value: unknown): Map<string, ModelCost> {
  return parseModelCosts(value, (problem) => {
    if (problem.kind === 'table') throw notAnObject(fn, argument, problem.value)
    const entry = `${argument}[${JSON.stringify(problem.prefix)}]`
    if (problem.kind === 'entry') throw notAnObject(fn, entry, problem.entry)
    throw notALimit(fn, `${entry}.${problem.field}`, problem.entry[problem.field])
  })
}

/** `$0.0034` rather than reagent-flow 0.5's `$0.00` for sub-cent amounts. */
function usdApart(a: number, limit: number): [string, string] {
  // At least as many decimals as the limit was written with: a limit of $0.001 never shows as $0.00.
  const written = String(limit)
  const decimals = written.includes('e') ? 10 : (written.split('.')[1] ?? '').length
  const [x, y] = formatApart(a, limit, Math.min(10, Math.max(2, decimals)))
  return [`$${x}`, `$${y}`]
}

/** The price table a cost check reads, and how its failure tells to fix a missing price. */
export interface PriceTable {
  costs: ReadonlyMap<string, ModelCost>
  /** The fix when no turn could be priced: `Price your models with modelCosts (...)`. */
  fix: string
  /** A fact to show then (the prefixes of a table the test gave), if any. */
  known?: string | undefined
}

/**
 * Fails unless the estimated cost of `trace` is at most `limitUsd`; the
 * check behind assertCostUnder and the toCostLessThan matcher. `fn` names
 * the caller in the warning about unpriced turns.
 */
export function checkCost(fn: string, trace: Trace, limitUsd: number, table: PriceTable, allowUnpriced: boolean): void {
  const { usd: total, top, skipped } = estimateCost(trace, table.costs)
  if (skipped.length > 0) warn('REAGENT_ASSERTION', `${fn} on "${trace.name}": skipped in the cost estimate: ${skipped.join(', ')}.`)
  if (top === undefined && trace.turns.length > 0 && !allowUnpriced) {
    fail(trace, `Cannot verify cost limit: no priced turns in ${trace.turns.length} turn(s). ${table.fix}`, {
      causes: [`skipped: ${skipped.join(', ')}`, table.known],
    })
  }
  if (!exceedsLimit(total, limitUsd)) return
  const [shown, limit] = usdApart(total, limitUsd)
  fail(trace, `Estimated cost ${shown} exceeds limit of ${limit}`, {
    causes: [
      top && `turn ${top.turn.index} cost the most: ${formatUsd(top.usd)} (${top.model} priced as "${top.prefix}": ${top.input} in / ${top.output} out)`,
    ],
    facts: [skipped.length > 0 ? `not priced: ${skipped.join(', ')}` : undefined],
  })
}

/** The default table (built-in, with REAGENT_PRICES over it), with `added` over that when given. */
export function pricesOver(added: ReadonlyMap<string, ModelCost> | undefined): ReadonlyMap<string, ModelCost> {
  const table = defaultPriceTable()
  return added === undefined || added.size === 0 ? table : new Map([...table, ...added])
}

/**
 * Passes when the estimated cost of the run is at most `usd`. Each turn is
 * priced from its model (longest matching prefix in the price table) and tokens.
 * @example assertCostUnder(trace, { usd: 0.05 })
 * @example assertCostUnder(trace, { usd: 0.05, modelCosts: { 'gpt-4o': { input: 2.5, output: 10 } } })
 */
export function assertCostUnder(source: TraceSource, options: CostOptions): void {
  const fn = 'assertCostUnder'
  const trace = toTrace(fn, source)
  const checked = requireOptions(fn, options, ['usd', 'modelCosts', 'allowUnpriced'])
  const limitUsd = requireLimit(fn, 'usd', checked.usd)
  const given = checked.modelCosts === undefined ? undefined : checkModelCosts(fn, 'modelCosts', checked.modelCosts)
  const table: PriceTable =
    given === undefined
      ? { costs: pricesOver(undefined), fix: `Price your models with modelCosts (or a ${PRICES_ENV} file), or pass allowUnpriced: true.` }
      : {
          costs: given,
          fix: 'Check modelCosts keys match your models, or pass allowUnpriced: true.',
          known: `modelCosts prefixes: ${[...given.keys()].map((p) => JSON.stringify(p)).join(', ') || 'none'}`,
        }
  checkCost(fn, trace, limitUsd, table, checked.allowUnpriced === true)
}
