import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { saveTrace } from '../../src/entries/files.js'
import { defaultPriceTable } from '../../src/storage/index.js'
import { formatSpend } from '../../src/viewer/client/format.js'
import { runPayload } from '../../src/viewer/payloads.js'
import { buildReport } from '../../src/viewer/report.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

const T0 = 1_800_000_000

/** A support run, its simulated user and judge (children saying their role), and a run without helpers. */
function supportDir(): string {
  const dir = join(tempDir(), '.reagent')
  mkdirSync(dir)
  const helper = (role: string, model: string, input: number, output: number) =>
    buildTrace(`support > ${role}`, [{ text: 'ok', model, tokens: { input_tokens: input, output_tokens: output } }], {
      trace_id: `trace-${role}`,
      parent_trace_id: 'trace-support',
      metadata: { reagent_role: role },
      started_at: T0 + 1,
    })
  const traces = [
    buildTrace('support', [{ text: 'Refunded.', model: 'gpt-4o-mini', tokens: { input_tokens: 1000, output_tokens: 100 } }], {
      trace_id: 'trace-support',
      started_at: T0,
    }),
    helper('user', 'gpt-4o', 20_000, 500),
    helper('judge', 'my-judge', 300, 20),
    buildTrace('alone', [{ text: 'hi', tokens: { input_tokens: 10, output_tokens: 1 } }], { started_at: T0 }),
  ]
  for (const trace of traces) saveTrace(trace, { traceDir: dir })
  return dir
}

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
