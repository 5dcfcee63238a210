import { afterEach, describe, expect, it } from 'vitest'
import { assertCostUnder, assertMaxTurns, assertTotalDurationUnder, assertTotalTokensUnder } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'
import { captureWarnings } from '../helpers/warnings.js'

// Warnings arrive on a later tick: let them land before the next test listens.
afterEach(() => new Promise((resolve) => setImmediate(resolve)))

describe('assertMaxTurns()', () => {
  const looping = buildTrace(
    'looping',
    [0, 1, 2, 3].map(() => ({ calls: [{ name: 'search', args: { q: 'refund policy' }, result: { hits: [] } }] })),
  )

  it('passes at or under the limit', () => {
    expect(() => assertMaxTurns(looping, 4)).not.toThrow()
  })

  it('fails over the limit and points at a repeated call', () => {
    const error = failureOf(() => assertMaxTurns(looping, 3))
    expect(error.assertion).toBe('Expected at most 3 turns, got 4')
    expect([error.actual, error.expected]).toEqual([4, 3])
    expect(error.message).toContain(
      'PROBABLE CAUSE: search({"q":"refund policy"}) was called 4 times with the same arguments (turns 0, 1, 2, 3): the agent may be looping',
    )
  })

  it('rejects a negative or fractional limit', () => {
    expect(() => assertMaxTurns(looping, -1)).toThrow(new RangeError('assertMaxTurns(): n must be a whole number >= 0, got -1 (number).'))
    expect(() => assertMaxTurns(looping, 2.5)).toThrow(RangeError)
  })
})

describe('assertTotalDurationUnder()', () => {
  const slow = buildTrace('slow', [
    { calls: [{ name: 'search', result: 'ok', ms: 1200 }], ms: 1300 },
    { text: 'done', ms: 150 },
  ])

  it('passes when started_at to ended_at is within the limit', () => {
    expect(() => assertTotalDurationUnder(slow, { ms: 1500 })).not.toThrow()
  })

  it('fails with the duration, the slowest tool call and the slowest turn', () => {
    const error = failureOf(() => assertTotalDurationUnder(slow, { ms: 1000 }))
    expect(error.assertion).toBe('Total duration 1500ms exceeds limit of 1000ms')
    expect(error.message).toContain('PROBABLE CAUSE: the slowest tool call: search took 1.2s in turn 0\n                the slowest turn: turn 0 took 1.3s')
  })

  it('shows decimals when whole milliseconds would look equal', () => {
    const trace = buildTrace('close', [], { started_at: 1000, ended_at: 1001.0004 })
    expect(failureOf(() => assertTotalDurationUnder(trace, { ms: 1000 })).assertion).toBe('Total duration 1000.4ms exceeds limit of 1000.0ms')
  })

  it('measures an open trace until now', () => {
    const open = buildTrace('open', [], { started_at: Date.now() / 1000 - 10, ended_at: null })
    const error = failureOf(() => assertTotalDurationUnder(open, { ms: 5000 }))
    expect(error.assertion).toMatch(/^Total duration 100\d\dms exceeds limit of 5000ms$/)
    expect(error.message).toContain('the session is still open: the duration was measured until now')
    expect(() => assertTotalDurationUnder(open, { ms: 60_000 })).not.toThrow()
  })

  it('rejects a missing or negative limit', () => {
    expect(() => assertTotalDurationUnder(slow, { ms: -5 })).toThrow(
      new RangeError('assertTotalDurationUnder(): ms must be a finite number >= 0, got -5 (number).'),
    )
    expect(() => assertTotalDurationUnder(slow, {} as never)).toThrow(
      new RangeError('assertTotalDurationUnder(): ms must be a finite number >= 0, got undefined (undefined).'),
    )
  })
})

describe('assertTotalTokensUnder()', () => {
  const tokens = buildTrace('tokens', [
    { tokens: { input_tokens: 100, output_tokens: 20 } },
    { tokens: { prompt_tokens: 300, completion_tokens: 30, total_tokens: 330 } },
    { tokens: null },
  ])

  it('sums input/output and prompt/completion tokens, and warns about turns without usage', async () => {
    const warnings = captureWarnings()
    expect(() => assertTotalTokensUnder(tokens, 450)).not.toThrow()
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ASSERTION',
        message: 'reagent-flow: assertTotalTokensUnder on "tokens": turn(s) 2 have no token_usage data and were skipped in the token count.',
      },
    ])
  })

  it('fails over the limit, naming the turn that used the most', () => {
    const error = failureOf(() => assertTotalTokensUnder(tokens, 400))
    expect(error.assertion).toBe('Total tokens 450 exceeds limit of 400')
    expect(error.message).toContain(
      'PROBABLE CAUSE: turn 1 used the most tokens: 330 (300 in / 30 out)\n                turn(s) 2 have no token_usage and were not counted',
    )
  })

  it('fails when no turn recorded usage, unless allowMissing', () => {
    const none = buildTrace('none', [{ text: 'hi' }, { text: 'bye' }])
    expect(failureOf(() => assertTotalTokensUnder(none, 10)).assertion).toBe(
      'Cannot verify token limit: no token data recorded in 2 turn(s). Fix instrumentation or pass allowMissing: true.',
    )
    expect(() => assertTotalTokensUnder(none, 10, { allowMissing: true })).not.toThrow()
    expect(() => assertTotalTokensUnder(buildTrace('empty', []), 0)).not.toThrow()
  })

  it('rejects a negative limit and unknown options', () => {
    expect(() => assertTotalTokensUnder(tokens, -1)).toThrow(new RangeError('assertTotalTokensUnder(): n must be a finite number >= 0, got -1 (number).'))
    expect(() => assertTotalTokensUnder(tokens, 1, { allow_missing: true } as never)).toThrow(
      new TypeError('assertTotalTokensUnder(): unknown option "allow_missing". Valid options: allowMissing.'),
    )
  })
})

describe('assertCostUnder()', () => {
  const modelCosts = { 'gpt-4o': { input: 2.5, output: 10 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } }
  const trace = buildTrace('costly', [
    { model: 'gpt-4o-2024-08-06', tokens: { input_tokens: 1000, output_tokens: 100 } }, // 0.0025 + 0.001
    { model: 'gpt-4o-mini-2024-07-18', tokens: { input_tokens: 10_000, output_tokens: 1000 } }, // 0.0015 + 0.0006
    { model: 'claude-sonnet-4', tokens: { input_tokens: 5, output_tokens: 5 } },
    { model: null, tokens: { input_tokens: 5, output_tokens: 5 } },
    { model: 'gpt-4o', tokens: null },
  ])

  it('prices each turn by the longest matching model prefix, and warns once about the turns it skipped', async () => {
    const warnings = captureWarnings()
    expect(() => assertCostUnder(trace, { usd: 0.0056, modelCosts })).not.toThrow()
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ASSERTION',
        message:
          'reagent-flow: assertCostUnder on "costly": skipped in the cost estimate: turn 2 (no price for model "claude-sonnet-4"), turn 3 (no model), turn 4 (no token_usage).',
      },
    ])
  })

  it('fails over the limit with enough decimals to tell the amounts apart', () => {
    const error = failureOf(() => assertCostUnder(trace, { usd: 0.005, modelCosts }))
    expect(error.assertion).toBe('Estimated cost $0.006 exceeds limit of $0.005')
    expect(error.message).toContain('PROBABLE CAUSE: turn 0 cost the most: $0.0035 (gpt-4o-2024-08-06 priced as "gpt-4o": 1000 in / 100 out)')
    expect(failureOf(() => assertCostUnder(trace, { usd: 0, modelCosts })).assertion).toBe('Estimated cost $0.01 exceeds limit of $0.00')
  })

  it('fails when no turn could be priced, unless allowUnpriced', () => {
    const error = failureOf(() => assertCostUnder(trace, { usd: 1, modelCosts: { o3: { input: 2, output: 8 } } }))
    expect(error.assertion).toBe(
      'Cannot verify cost limit: no priced turns in 5 turn(s). Check modelCosts keys match your models, or pass allowUnpriced: true.',
    )
    expect(error.message).toContain('                modelCosts prefixes: "o3"')
    expect(() => assertCostUnder(trace, { usd: 1, modelCosts: {}, allowUnpriced: true })).not.toThrow()
  })

  it('rejects prices that are not non-negative numbers, naming the model', () => {
    expect(() => assertCostUnder(trace, { usd: 1, modelCosts: { 'gpt-4o': { input: 2.5 } as never } })).toThrow(
      new RangeError('assertCostUnder(): modelCosts["gpt-4o"].output must be a finite number >= 0, got undefined (undefined).'),
    )
    expect(() => assertCostUnder(trace, { usd: -1, modelCosts })).toThrow(RangeError)
  })
})
