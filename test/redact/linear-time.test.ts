/**
 * The two inputs that blocked the event loop (29 s and 1.4 s) before the
 * scanners were made linear, at the sizes they were reported with and at
 * 5 MB. Budgets are generous (a loaded 2-core machine): linear work takes
 * milliseconds here, the old quadratic work took seconds to hours.
 */
import { describe, expect, it } from 'vitest'
import { redactValue, resolveRedactPolicy } from '../../src/redact/index.js'

const policy = resolveRedactPolicy(undefined, { env: {} })!

function timed(text: string): number {
  const start = performance.now()
  redactValue(text, policy)
  return performance.now() - start
}

describe('redaction time', () => {
  it.each([
    ["'Bearer' + 320,000 spaces", `Bearer${' '.repeat(320_000)}`],
    ["'auth' × 80,000", 'auth'.repeat(80_000)],
    ["'Bearer' + 5,000,000 spaces", `Bearer${' '.repeat(5_000_000)}`],
    ["'auth' × 1,250,000", 'auth'.repeat(1_250_000)],
    ["'hooks.slack.com/services' × 100,000", 'hooks.slack.com/services'.repeat(100_000)],
    ["'discord.com/api/v' × 300,000", 'discord.com/api/v'.repeat(300_000)],
    ["'&sig=' × 400,000", '&sig='.repeat(400_000)],
  ])('stays linear for %s', (_, text) => {
    expect(timed(text)).toBeLessThan(1_500)
  })
})
