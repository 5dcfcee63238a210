import { vi } from 'vitest'
import { buildTrace } from '../helpers/trace-builder.js'

export interface MatcherFailure extends Error {
  actual?: unknown
  expected?: unknown
}

/** Runs an `expect(...)` that must fail, colour off, and returns what vitest threw. */
export function matcherFailure(run: () => unknown): MatcherFailure {
  vi.stubEnv('NO_COLOR', '1')
  try {
    run()
  } catch (error) {
    return error as MatcherFailure
  } finally {
    vi.unstubAllEnvs()
  }
  throw new Error('the expectation passed, but it was expected to fail')
}

/** A refund run: lookup, refund, answer. */
export const refund = buildTrace('refund-agent', [
  { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }] },
  { calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99 }, result: { ok: true } }] },
  { text: 'Refunded.' },
])

/** The agent stack trace of `refund`, as every failure about it draws it. */
export const REFUND_TURNS = [
  'refund-agent  completed · 3 turns · 2 tool calls · 1.5s',
  '  ✓ Turn 0  0µs  gpt-4o',
  '      LLM -> lookup_order({"order_id":"42"})',
  '        ✓ {"amount":19.99}',
  '  ✓ Turn 1  0µs  gpt-4o',
  '      LLM -> issue_refund({"order_id":"42","amount":19.99})',
  '        ✓ {"ok":true}',
  '  ✓ Turn 2  0µs  gpt-4o',
  '      LLM -> “Refunded.”',
]
