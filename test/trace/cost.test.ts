import { describe, expect, it } from 'vitest'
import { estimateCost, formatUsd, type ModelCost } from '../../src/trace/cost.js'
import { buildTrace } from '../helpers/trace-builder.js'

const costs = new Map<string, ModelCost>([
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
])

describe('estimateCost()', () => {
  it('prices each turn by the longest model prefix and its tokens, and names the turns it could not price', () => {
    const trace = buildTrace('agent', [
      { model: 'gpt-4o-2024-08-06', tokens: { input_tokens: 1000, output_tokens: 100 } },
      { model: 'gpt-4o-mini', tokens: { prompt_tokens: 2000, completion_tokens: 1000 } },
      { model: 'claude-sonnet-4', tokens: { input_tokens: 10 } },
      { model: null, tokens: { input_tokens: 10 } },
      { model: 'gpt-4o' },
    ])
    const estimate = estimateCost(trace, costs)
    expect(estimate.usd).toBeCloseTo(0.0035 + 0.0009, 12)
    expect(estimate.priced.map((turn) => [turn.turn.index, turn.prefix, turn.input, turn.output])).toEqual([
      [0, 'gpt-4o', 1000, 100],
      [1, 'gpt-4o-mini', 2000, 1000],
    ])
    expect(estimate.top?.turn.index).toBe(0)
    expect(estimate.skipped).toEqual(['turn 2 (no price for model "claude-sonnet-4")', 'turn 3 (no model)', 'turn 4 (no token_usage)'])
  })
})

describe('formatUsd()', () => {
  it('shows cents, and two significant digits below a cent', () => {
    expect([formatUsd(0), formatUsd(0.05), formatUsd(12.345), formatUsd(0.0034), formatUsd(0.00001234)]).toEqual([
      '$0.00',
      '$0.05',
      '$12.35',
      '$0.0034',
      '$0.000012',
    ])
  })
})
