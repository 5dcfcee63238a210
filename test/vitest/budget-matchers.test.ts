import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import '../../src/entries/vitest.js'
import { assertCostUnder, assertTotalTokensUnder } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { matcherFailure } from './helpers.js'

/** Two turns: gpt-4o (priced by the built-in table: $0.00265) and a fine-tune the table does not know. */
const run = buildTrace('support-agent', [
  { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }], tokens: { input_tokens: 900, output_tokens: 40 } },
  { text: 'Refunded.', tokens: { input_tokens: 1100, output_tokens: 20 }, model: 'acme-support-ft' },
])

const HEADER = 'support-agent  completed · 2 turns · 1 tool call · 2060 tokens (2000 in / 60 out) · 1.5s'
const TURNS = [
  HEADER,
  '  ✓ Turn 0  0µs  gpt-4o',
  '      LLM -> lookup_order({"order_id":"42"})',
  '        ✓ {"amount":19.99}',
  '  ✓ Turn 1  0µs  acme-support-ft',
  '      LLM -> “Refunded.”',
]
const FINE_TUNE = { 'acme-support-ft': { input: 3, output: 12 } }

describe('toStayWithinTokens()', () => {
  it('passes when input + output tokens are at most n', () => {
    expect(run).toStayWithinTokens(2060)
    expect(run).not.toStayWithinTokens(2059)
  })

  it("fails with assertTotalTokensUnder()'s message", () => {
    const failure = matcherFailure(() => expect(run).toStayWithinTokens(1000))
    expect(failure.message).toBe(failureOf(() => assertTotalTokensUnder(run, 1000)).message)
    expect(failure.message.split('\n')[0]).toBe('Total tokens 2060 exceeds limit of 1000')
  })

  it('with .not, fails saying how many tokens the run used', () => {
    const headline = 'expected the run to use more than 5000 tokens, but it used 2060 (2000 in / 60 out)'
    expect(matcherFailure(() => expect(run).not.toStayWithinTokens(5000)).message).toBe(
      [headline, '', ...TURNS, '', `ASSERTION FAILED: ${headline}`, 'PROBABLE CAUSE: 2 turns of 2 recorded token usage'].join('\n'),
    )
  })

  it('fails on a run that recorded no tokens, with .not too, unless allowMissing', () => {
    const unmeasured = buildTrace('unmeasured', [{ text: 'Hi.' }])
    const cannot = 'Cannot verify token limit: no token data recorded in 1 turn(s). Fix instrumentation or pass allowMissing: true.'
    expect(matcherFailure(() => expect(unmeasured).toStayWithinTokens(100)).message.split('\n')[0]).toBe(cannot)
    expect(matcherFailure(() => expect(unmeasured).not.toStayWithinTokens(100)).message.split('\n')[0]).toBe(cannot)
    expect(unmeasured).toStayWithinTokens(100, { allowMissing: true })
  })

  it('reports bad arguments under its own name', () => {
    expect(() => expect(run).toStayWithinTokens(-1)).toThrow(new RangeError('toStayWithinTokens(): n must be a finite number >= 0, got -1 (number).'))
    expect(() => expect(run).toStayWithinTokens(10, { allowMising: true } as never)).toThrow(
      new TypeError('toStayWithinTokens(): unknown option "allowMising". Valid options: allowMissing.'),
    )
  })
})

describe('toCostLessThan()', () => {
  it('passes when the cost estimated with the built-in price table is at most usd', () => {
    expect(run).toCostLessThan(0.00265)
    expect(run).not.toCostLessThan(0.0026)
  })

  it("fails with assertCostUnder()'s message, naming the turns it could not price, and never shows a limit as $0.00", () => {
    const failure = matcherFailure(() => expect(run).toCostLessThan(0.001))
    expect(failure.message).toBe(failureOf(() => assertCostUnder(run, { usd: 0.001 })).message)
    expect(failure.message).toBe(
      [
        'Estimated cost $0.003 exceeds limit of $0.001',
        '',
        ...TURNS,
        '',
        'ASSERTION FAILED: Estimated cost $0.003 exceeds limit of $0.001',
        'PROBABLE CAUSE: turn 0 cost the most: $0.0027 (gpt-4o priced as "gpt-4o": 900 in / 40 out)',
        '                not priced: turn 1 (no price for model "acme-support-ft")',
      ].join('\n'),
    )
  })

  it('adds prices over the built-in table: the models it does not know, and rates that differ', () => {
    expect(matcherFailure(() => expect(run).toCostLessThan(0.005, { prices: FINE_TUNE })).message.split('\n')[0]).toBe(
      'Estimated cost $0.006 exceeds limit of $0.005',
    )
    expect(run).toCostLessThan(0.0062, { prices: FINE_TUNE })
    // The longest prefix wins, so a rate for one dated release overrides the family's.
    expect(run).not.toCostLessThan(0.02, { prices: { 'gpt-4o': { input: 25, output: 100 } } })
  })

  it('reads the REAGENT_PRICES file under the prices given', () => {
    const file = join(tempDir(), 'prices.json')
    writeFileSync(file, JSON.stringify({ 'acme-support-ft': { input: 1000, output: 1000 } }))
    vi.stubEnv('REAGENT_PRICES', file)
    try {
      expect(run).not.toCostLessThan(1)
      expect(run).toCostLessThan(0.0062, { prices: FINE_TUNE })
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('with .not, fails with the estimate and what was priced', () => {
    const headline = 'expected the run to cost more than $1.00, but its estimated cost is $0.0027'
    expect(matcherFailure(() => expect(run).not.toCostLessThan(1)).message).toBe(
      [
        headline,
        '',
        ...TURNS,
        '',
        `ASSERTION FAILED: ${headline}`,
        'PROBABLE CAUSE: 1 of 2 turns priced; not priced: turn 1 (no price for model "acme-support-ft")',
      ].join('\n'),
    )
  })

  it('fails on a run it cannot price, with .not too, telling how to add the price, unless allowUnpriced', async () => {
    const warnings = captureWarnings()
    const local = buildTrace('local-agent', [{ text: 'Hi.', model: 'llama-3-8b', tokens: { input_tokens: 10, output_tokens: 5 } }])
    const cannot =
      "Cannot verify cost limit: no priced turns in 1 turn(s). Add your models' prices with { prices: { 'model-prefix': { input, output } } } (USD per 1M tokens) " +
      'or a REAGENT_PRICES file, or pass allowUnpriced: true.'
    expect(matcherFailure(() => expect(local).toCostLessThan(1)).message.split('\n')[0]).toBe(cannot)
    expect(matcherFailure(() => expect(local).not.toCostLessThan(1)).message.split('\n')[0]).toBe(cannot)
    expect(local).toCostLessThan(1, { allowUnpriced: true })
    expect((await warnings.seen()).at(-1)).toEqual({
      code: 'REAGENT_ASSERTION',
      message: 'reagent-flow: toCostLessThan on "local-agent": skipped in the cost estimate: turn 0 (no price for model "llama-3-8b").',
    })
  })

  it('reports bad arguments under its own name, naming the price entry at fault', () => {
    expect(() => expect(run).toCostLessThan(Number.NaN)).toThrow(new RangeError('toCostLessThan(): usd must be a finite number >= 0, got NaN (number).'))
    expect(() => expect(run).toCostLessThan(1, { prices: { 'gpt-4o': { input: -1, output: 10 } } })).toThrow(
      new RangeError('toCostLessThan(): prices["gpt-4o"].input must be a finite number >= 0, got -1 (number).'),
    )
    expect(() => expect(run).toCostLessThan(1, { price: FINE_TUNE } as never)).toThrow(
      new TypeError('toCostLessThan(): unknown option "price". Valid options: prices, allowUnpriced.'),
    )
  })
})
