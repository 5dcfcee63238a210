import { describe, expect, it } from 'vitest'
import { defaultPriceTable } from '../../src/storage/index.js'
import { formatSpend } from '../../src/viewer/client/format.js'
import { runPayload } from '../../src/viewer/payloads.js'
import { buildReport } from '../../src/viewer/report.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import { supportDir } from './spend-dir.js'

describe("the viewer's spend of a run with helper runs", () => {
  it('gives the Run page the split of a run with helpers, and none for a run without', () => {
    const index = new TraceIndex({ dir: supportDir(), prices: defaultPriceTable() })
    const spend = runPayload(index, 'support.trace.json').spend!
    expect([spend.agent.usd, spend.user.usd, spend.judge, spend.tools.tokens, spend.total.tokens]).toEqual([
      0.00021,
      0.055,
      { inputTokens: 300, outputTokens: 20, tokens: 320, usd: null, unpricedModels: ['my-judge'] },
      0,
      21_920,
    ])
    expect(formatSpend(spend)).toBe(
      'agent 1,100 tokens $0.00021 · user 20,500 tokens $0.06 · judge 320 tokens no price for my-judge · total 21,920 tokens $0.06 + no price for my-judge',
    )
    expect(runPayload(index, 'alone.trace.json')).not.toHaveProperty('spend')
    expect(runPayload(index, 'support___user.trace.json')).not.toHaveProperty('spend')
    index.close()
  })

  it('embeds the same split in the static report, for the runs with helpers only', () => {
    const { html } = buildReport({ dir: supportDir() })
    const spends = JSON.parse(html.match(/"spends":(\{.*?\}\}\})/)![1]!) as Record<string, { total: { tokens: number } }>
    expect(Object.keys(spends)).toEqual(['support.trace.json'])
    expect(spends['support.trace.json']!.total.tokens).toBe(21_920)
  })
})
