import { describe, expect, it } from 'vitest'
import { formatTranscript } from '../../src/report/transcript.js'
import { buildTrace } from '../helpers/trace-builder.js'

describe('formatTranscript()', () => {
  it('writes the request, each call with its result or error, the text answers and the end, with no timings or ids', () => {
    const trace = buildTrace(
      'refund-agent',
      [
        { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 }, ms: 12 }], ms: 300 },
        { calls: [{ name: 'issue_refund', args: { order_id: '42' }, error: 'CardDeclined: insufficient funds' }] },
        { text: 'I could not refund order 42:\nthe card was declined.' },
      ],
      { status: 'failed', error: { name: 'RefundError', message: 'gave up' } },
    )
    trace.turns[0]!.llm_call.messages = [
      { role: 'system', content: 'You are a support agent.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Refund order 42,' },
          { type: 'text', text: 'please.' },
        ],
      },
    ]
    trace.turns[1]!.llm_call.error = { name: 'APIConnectionError', message: 'retried once' }
    expect(formatTranscript(trace)).toBe(
      [
        'user: Refund order 42, please.',
        'turn 0: called lookup_order({"order_id":"42"})',
        '  lookup_order returned {"amount":19.99}',
        'turn 1: the model call failed: APIConnectionError: retried once',
        'turn 1: called issue_refund({"order_id":"42"})',
        '  issue_refund failed: CardDeclined: insufficient funds',
        'turn 2: answered “I could not refund order 42:\\nthe card was declined.”',
        'the run failed: RefundError: gave up',
      ].join('\n'),
    )
  })

  it('says when the model was never called, and when the run is still being recorded', () => {
    expect(formatTranscript(buildTrace('idle', [], { status: 'active', ended_at: null }))).toBe('(the model was never called)\nthe run is still being recorded')
  })

  it('cuts a huge result, so a judge prompt stays bounded', () => {
    const trace = buildTrace('big', [{ calls: [{ name: 'dump', result: 'x'.repeat(100_000) }] }])
    const line = formatTranscript(trace).split('\n')[1]!
    expect(line.length).toBeLessThan(520)
    expect(line.endsWith('…')).toBe(true)
  })
})
