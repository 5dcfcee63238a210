import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { assertFlow, assertToolSucceeded, session, type Session } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'
import { matcherFailure, refund, REFUND_TURNS } from './helpers.js'

describe('toMatchFlow()', () => {
  it('passes when the calls match the pattern, with gaps', () => {
    expect(refund).toMatchFlow(['lookup_order', 'issue_refund'])
    expect(refund).toMatchFlow(['...', 'issue_refund'])
    expect(refund).not.toMatchFlow(['issue_refund', '...'])
  })

  it("fails with assertFlow()'s message, the flow and the pattern as actual/expected", () => {
    const failure = matcherFailure(() => expect(refund).toMatchFlow(['lookup_order', 'check_policy', 'issue_refund']))
    expect(failure.message).toBe(failureOf(() => assertFlow(refund, ['lookup_order', 'check_policy', 'issue_refund'])).message)
    expect(failure.actual).toEqual(['lookup_order', 'issue_refund'])
    expect(failure.expected).toEqual(['lookup_order', 'check_policy', 'issue_refund'])
  })

  it('with .not, fails showing the flow that matched', () => {
    const failure = matcherFailure(() => expect(refund).not.toMatchFlow(['lookup_order', '...']))
    expect(failure.message).toBe(
      [
        'expected the tool calls not to match ["lookup_order", "..."], but they did: ["lookup_order", "issue_refund"]',
        '',
        ...REFUND_TURNS,
        '',
        'ASSERTION FAILED: expected the tool calls not to match ["lookup_order", "..."], but they did: ["lookup_order", "issue_refund"]',
        'PROBABLE CAUSE: the agent called lookup_order (turn 0), issue_refund (turn 1), and answered in turn 2: “Refunded.”',
      ].join('\n'),
    )
  })

  it('reports a bad pattern under its own name', () => {
    expect(() => expect(refund).toMatchFlow(['lookup_order', 42] as never)).toThrow(
      new TypeError("toMatchFlow(): pattern[1] must be a tool name string or '...', got 42 (number)."),
    )
  })
})

describe('toHaveSucceeded()', () => {
  it('passes when the run completed and every tool call has a clean result', () => {
    expect(refund).toHaveSucceeded()
    expect(buildTrace('chat', [{ text: 'Hello.' }])).toHaveSucceeded()
  })

  it('fails on a Session whose function threw', async () => {
    let crashed: Session | undefined
    await expect(
      session('crashing-agent', { save: false }, (s) => {
        crashed = s
        s.logLlmCall({ responseText: 'Let me check.' })
        throw new RangeError('budget exceeded')
      }),
    ).rejects.toThrow('budget exceeded')
    expect(matcherFailure(() => expect(crashed).toHaveSucceeded()).message.split('\n')[0]).toBe(
      'expected the run to succeed, but it failed: RangeError: budget exceeded',
    )
  })

  it('draws the failed run with its error, the status as actual/expected', () => {
    const trace = buildTrace('crashing-agent', [{ calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 } }] }], {
      status: 'failed',
      error: { name: 'RangeError', message: 'budget exceeded' },
    })
    const failure = matcherFailure(() => expect(trace).toHaveSucceeded())
    expect(failure.message).toBe(
      [
        'expected the run to succeed, but it failed: RangeError: budget exceeded',
        '',
        'crashing-agent  failed · 1 turn · 1 tool call · 1.5s',
        '  ✓ Turn 0  0µs  gpt-4o',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"amount":19.99}',
        '  ✗ RangeError: budget exceeded',
        '',
        'ASSERTION FAILED: expected the run to succeed, but it failed: RangeError: budget exceeded',
        'PROBABLE CAUSE: the run ended with RangeError: budget exceeded',
      ].join('\n'),
    )
    expect([failure.actual, failure.expected]).toEqual(['failed', 'completed'])
  })

  it('says when the run was cancelled', () => {
    const trace = buildTrace('stopped', [], { status: 'cancelled', error: { name: 'AbortError', message: 'aborted' } })
    expect(matcherFailure(() => expect(trace).toHaveSucceeded()).message.split('\n')[0]).toBe(
      'expected the run to succeed, but it was cancelled: AbortError: aborted',
    )
  })

  it('fails on the earliest tool call that errored or got no result, as assertToolSucceeded() reports it', () => {
    const trace = buildTrace('flaky-agent', [
      { calls: [{ name: 'search', args: { q: 'a' }, result: ['x'] }] },
      { calls: [{ name: 'fetch', args: { url: 'u' }, error: 'TimeoutError: 30s' }] },
      { calls: [{ name: 'search', args: { q: 'b' }, error: 'RateLimited' }] },
    ])
    const failure = matcherFailure(() => expect(trace).toHaveSucceeded())
    expect(failure.message).toBe(failureOf(() => assertToolSucceeded(trace, 'fetch')).message)
    expect(failure.message.split('\n')[0]).toBe('"fetch" failed in turn 1: TimeoutError: 30s')

    const unanswered = buildTrace('silent-tool', [{ calls: [{ name: 'notify', args: {}, noResult: true }] }])
    expect(matcherFailure(() => expect(unanswered).toHaveSucceeded()).message.split('\n')[0]).toBe('"notify" in turn 0 has no recorded result')
  })

  it('with .not, fails saying the run completed and how many calls succeeded', () => {
    expect(matcherFailure(() => expect(refund).not.toHaveSucceeded()).message.split('\n')[0]).toBe(
      'expected the run not to succeed, but it completed and all 2 tool calls succeeded',
    )
    expect(matcherFailure(() => expect(buildTrace('chat', [{ text: 'Hi.' }])).not.toHaveSucceeded()).message.split('\n')[0]).toBe(
      'expected the run not to succeed, but it completed and made no tool call',
    )
  })
})
