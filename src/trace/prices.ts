/**
 * The one price table: USD per 1M input and output tokens for the current
 * OpenAI and Anthropic models, dated, keyed by model-name prefix (the longest
 * matching prefix wins, so `gpt-4o-2024-08-06` is priced as `gpt-4o` and
 * `gpt-4o-mini` as itself). `get`, `assertCostUnder`, the run ledger's
 * `run.get` and budgets all price turns with it.
 *
 * A price file (`--prices`, or `REAGENT_PRICES` for everything that reads
 * the default table) adds entries and wins over the built-in ones: a model
 * the table does not know, a negotiated rate, a new release. The file is
 * read by a function handed in (storage's `loadPriceTable` and
 * `defaultPriceTable` hand theirs): the trace layer does not reach the disk.
 */
import { UsageError } from '../errors/index.js'
import { parseModelCosts, type ModelCost } from './cost.js'

/** When the built-in prices were read off the providers' pricing pages. */
export const PRICES_AS_OF = '2026-11-05'

/** Input and output, USD per 1M tokens; standard tier (no batch, no cache, short prompts). */
const price = (input: number, output: number): ModelCost => ({ input, output })

/** The built-in table, as of `PRICES_AS_OF`. */
export const BUILTIN_PRICES: Readonly<Record<string, ModelCost>> = Object.freeze({
  // OpenAI (developers.openai.com/api/docs/pricing)
  'gpt-5.5-pro': price(30, 180),
  'gpt-5.5': price(5, 30),
  'gpt-5.4-pro': price(30, 180),
  'gpt-5.4-mini': price(0.75, 4.5),
  'gpt-5.4-nano': price(0.2, 1.25),
  'gpt-5.4': price(2.5, 15),
  'gpt-5.3': price(1.75, 14),
  'gpt-5.2': price(1.75, 14),
  'gpt-5.1': price(1.25, 10),
  'gpt-5-pro': price(15, 120),
  'gpt-5-mini': price(0.25, 2),
  'gpt-5-nano': price(0.05, 0.4),
  'gpt-5': price(1.25, 10),
  'gpt-4.1-mini': price(0.4, 1.6),
  'gpt-4.1-nano': price(0.1, 0.4),
  'gpt-4.1': price(2, 8),
  'gpt-4o-mini': price(0.15, 0.6),
  'gpt-4o': price(2.5, 10),
  'o4-mini': price(1.1, 4.4),
  'o3-pro': price(20, 80),
  'o3-mini': price(1.1, 4.4),
  o3: price(2, 8),
  'o1-pro': price(150, 600),
  'o1-mini': price(1.1, 4.4),
  o1: price(15, 60),
  // Anthropic (platform.claude.com/docs/en/about-claude/pricing); Haiku 5.5 at its prompt <= 100k band
  'claude-fable-5': price(10, 50),
  'claude-opus-5-5': price(4, 20),
  'claude-opus-5': price(5, 25),
  'claude-sonnet-5': price(2, 10),
  'claude-haiku-5-5': price(0.1, 0.5),
  'claude-opus-4-8': price(5, 25),
  'claude-opus-4-7': price(5, 25),
  'claude-opus-4-6': price(5, 25),
  'claude-opus-4-5': price(5, 25),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4': price(15, 75),
  'claude-sonnet-4': price(3, 15),
  'claude-haiku-4-5': price(1, 5),
  'claude-3-7-sonnet': price(3, 15),
  'claude-3-5-sonnet': price(3, 15),
  'claude-3-5-haiku': price(0.8, 4),
  'claude-3-opus': price(15, 75),
  'claude-3-haiku': price(0.25, 1.25),
})

export const PRICES_ENV = 'REAGENT_PRICES'
const PRICE_EXAMPLE = '{ "gpt-4o": { "input": 2.5, "output": 10 } }'

/** A file's text, or null when there is no such file. */
export type ReadText = (file: string) => string | null

/**
 * The built-in table with the entries of the price file `file` added over it,
 * read with `readText`. `option` names where the file came from in errors
 * (`--prices`, `REAGENT_PRICES`). Throws `UsageError` naming the file and the
 * entry at fault.
 */
export function readPriceTable(readText: ReadText, file: string | undefined, option: string): Map<string, ModelCost> {
  const table = new Map(Object.entries(BUILTIN_PRICES))
  if (file === undefined || file === '') return table
  const text = readText(file)
  if (text === null) throw new UsageError(`${option} ${file}: no such file. It holds USD per 1M tokens per model prefix: ${PRICE_EXAMPLE}`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${option} ${file}: not JSON (${(error as Error).message}). Expected ${PRICE_EXAMPLE}`)
  }
  const added = parseModelCosts(value, (problem) => {
    if (problem.kind === 'table') throw new UsageError(`${option} ${file}: must be an object of model prefixes, like ${PRICE_EXAMPLE}`)
    throw new UsageError(
      `${option} ${file}: ${JSON.stringify(problem.prefix)} must have "input" and "output" as numbers >= 0 (USD per 1M tokens); got ${JSON.stringify(problem.entry)}`,
    )
  })
  for (const [prefix, cost] of added) table.set(prefix, cost)
  return table
}

let cached: { file: string | undefined; table: Map<string, ModelCost> } | undefined

/** The table used where none is given: the built-in one, with the file named by `REAGENT_PRICES` over it (read once per file name, with `readText`). */
export function readDefaultPriceTable(readText: ReadText): ReadonlyMap<string, ModelCost> {
  const file = process.env[PRICES_ENV] || undefined
  if (cached === undefined || cached.file !== file) cached = { file, table: readPriceTable(readText, file, PRICES_ENV) }
  return cached.table
}
