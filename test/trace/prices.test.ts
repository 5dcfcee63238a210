import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { assertCostUnder } from '../../src/entries/index.js'
import { estimateCost, priceOf } from '../../src/trace/cost.js'
import { defaultPriceTable, loadPriceTable } from '../../src/storage/price-file.js'
import { BUILTIN_PRICES, PRICES_AS_OF } from '../../src/trace/prices.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

afterEach(() => vi.unstubAllEnvs())

describe('the built-in price table', () => {
  it('is dated and prices dated snapshots of OpenAI and Anthropic models by their longest prefix', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const table = loadPriceTable()
    const priced = (model: string): [string, number, number] | undefined => {
      const found = priceOf(model, table)
      return found && [found.prefix, found.cost.input, found.cost.output]
    }
    expect(priced('gpt-4o-2024-08-06')).toEqual(['gpt-4o', 2.5, 10])
    expect(priced('gpt-4o-mini-2024-07-18')).toEqual(['gpt-4o-mini', 0.15, 0.6])
    expect(priced('gpt-5.4-mini')).toEqual(['gpt-5.4-mini', 0.75, 4.5])
    expect(priced('claude-sonnet-4-5-20250929')).toEqual(['claude-sonnet-4', 3, 15])
    expect(priced('claude-opus-4-1-20250805')).toEqual(['claude-opus-4-1', 15, 75])
    expect(priced('claude-opus-4-5-20251101')).toEqual(['claude-opus-4-5', 5, 25])
    expect(priced('claude-haiku-4-5-20251001')).toEqual(['claude-haiku-4-5', 1, 5])
    expect(priced('llama-3-8b')).toBeUndefined()
  })

  it('has no entry a longer one shadows wrongly: every key is priced as itself', () => {
    const table = loadPriceTable()
    for (const key of Object.keys(BUILTIN_PRICES)) expect(priceOf(key, table)?.prefix).toBe(key)
  })
})

describe('loadPriceTable(file)', () => {
  it('adds the entries of the file over the built-in ones', () => {
    const file = join(tempDir(), 'prices.json')
    writeFileSync(file, JSON.stringify({ 'gpt-4o': { input: 1, output: 2 }, 'my-tune': { input: 3, output: 4 } }))
    const table = loadPriceTable(file)
    expect([table.get('gpt-4o'), table.get('my-tune'), table.get('gpt-4.1')]).toEqual([
      { input: 1, output: 2 },
      { input: 3, output: 4 },
      { input: 2, output: 8 },
    ])
  })

  it('names the file, the option and the entry at fault', () => {
    const file = join(tempDir(), 'prices.json')
    writeFileSync(file, '{ "gpt-4o": 3 }')
    expect(() => loadPriceTable(file, 'REAGENT_PRICES')).toThrow(
      `REAGENT_PRICES ${file}: "gpt-4o" must have "input" and "output" as numbers >= 0 (USD per 1M tokens); got 3`,
    )
    writeFileSync(file, '{ nope')
    expect(() => loadPriceTable(file)).toThrow(new RegExp(`^--prices ${file}: not JSON \\(`))
  })
})

describe('defaultPriceTable()', () => {
  it('reads the file named by REAGENT_PRICES over the built-in table', () => {
    const file = join(tempDir(), 'prices.json')
    writeFileSync(file, JSON.stringify({ 'local-llm': { input: 1, output: 1 } }))
    expect(defaultPriceTable().has('local-llm')).toBe(false)
    vi.stubEnv('REAGENT_PRICES', file)
    expect(defaultPriceTable().get('local-llm')).toEqual({ input: 1, output: 1 })
    expect(defaultPriceTable().get('gpt-4o')).toEqual({ input: 2.5, output: 10 })
  })
})

describe('assertCostUnder() without modelCosts', () => {
  const trace = buildTrace('priced', [
    { model: 'gpt-4o-2024-08-06', tokens: { input_tokens: 1000, output_tokens: 100 } }, // 0.0025 + 0.001
    { model: 'claude-sonnet-4-5', tokens: { input_tokens: 1000, output_tokens: 100 } }, // 0.003 + 0.0015
  ])

  it('prices the run with the built-in table', () => {
    expect(estimateCost(trace, defaultPriceTable()).usd).toBeCloseTo(0.008, 12)
    expect(() => assertCostUnder(trace, { usd: 0.008 })).not.toThrow()
    expect(failureOf(() => assertCostUnder(trace, { usd: 0.007 })).assertion).toBe('Estimated cost $0.008 exceeds limit of $0.007')
  })

  it('fails when no model is in the table, saying how to price it', () => {
    const local = buildTrace('local', [{ model: 'llama-3-8b', tokens: { input_tokens: 5, output_tokens: 5 } }])
    expect(failureOf(() => assertCostUnder(local, { usd: 1 })).assertion).toBe(
      'Cannot verify cost limit: no priced turns in 1 turn(s). Price your models with modelCosts (or a REAGENT_PRICES file), or pass allowUnpriced: true.',
    )
  })
})
