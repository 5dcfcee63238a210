import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { figuresOf } from '../../src/vitest/session-figures.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace } from '../helpers/trace-builder.js'

function run() {
  const turns = [
    { calls: [{ name: 'lookup', args: { id: '42' }, result: { ok: true } }], tokens: { input_tokens: 1000, output_tokens: 100 } },
    { text: 'Done.' },
  ]
  return buildTrace('refund', turns, { started_at: 100, ended_at: 100.5 })
}

describe('the figures of a session for the results file', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('counts tokens, dollars by the price table, turns, tool calls and duration', () => {
    expect(figuresOf(run(), '/p/.reagent/refund.trace.json')).toMatchObject({
      name: 'refund',
      status: 'completed',
      path: '/p/.reagent/refund.trace.json',
      tokens: 1100,
      usd: 0.0035,
      turns: 2,
      tool_calls: 1,
      duration_ms: 500,
    })
  })

  it('leaves the dollars out, and never throws, when the price file cannot be read', () => {
    const file = join(tempDir(), 'prices.json')
    writeFileSync(file, '{ not json')
    vi.stubEnv('REAGENT_PRICES', file)
    expect(figuresOf(run(), undefined)).toMatchObject({ path: null, tokens: 1100, usd: null })
  })
})
