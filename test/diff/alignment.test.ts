import { describe, expect, it } from 'vitest'
import { Session, type Trace } from '../../src/entries/index.js'
import { diffTraces } from '../../src/entries/diff.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'

const refund: ScriptedTurn[] = [
  ['lookup_order', { order_id: '42' }, { amount: 19.99 }],
  ['check_policy', { days: 3 }, { eligible: true }],
  ['issue_refund', { order_id: '42', amount: 19.99 }, { ok: true }],
  'Refunded $19.99.',
]

describe('diffTraces() alignment', () => {
  it('finds no difference between two recordings of the same behaviour', () => {
    const diff = diffTraces(scriptTrace(refund), scriptTrace(refund))
    expect(diff.equal).toBe(true)
    expect(diff.changes).toEqual([])
    expect(diff.turns.map((t) => [t.expected, t.actual, t.status])).toEqual([
      [0, 0, 'equal'],
      [1, 1, 'equal'],
      [2, 2, 'equal'],
      [3, 3, 'equal'],
    ])
  })

  it('reports one inserted turn as one insertion, and the later turns as aligned and equal', () => {
    const actual = [...refund]
    actual.splice(1, 0, ['search', { q: 'refund policy' }, { hits: 2 }])
    const diff = diffTraces(scriptTrace(refund), scriptTrace(actual))
    expect(diff.equal).toBe(false)
    expect(diff.changes).toEqual([
      {
        kind: 'added',
        subject: 'turn',
        turn: { expected: null, actual: 1 },
        path: 'turns[1]',
        expected: undefined,
        actual: { tool_calls: [{ name: 'search', arguments: { q: 'refund policy' } }], response_text: null },
      },
    ])
    expect(diff.turns.map((t) => [t.expected, t.actual, t.status])).toEqual([
      [0, 0, 'equal'],
      [null, 1, 'added'],
      [1, 2, 'equal'],
      [2, 3, 'equal'],
      [3, 4, 'equal'],
    ])
  })

  it('reports one deleted turn as one removal, with its path in the expected trace', () => {
    const diff = diffTraces(scriptTrace(refund), scriptTrace(refund.filter((_, i) => i !== 1)))
    expect(diff.changes).toEqual([
      {
        kind: 'removed',
        subject: 'turn',
        turn: { expected: 1, actual: null },
        path: 'turns[1]',
        expected: { tool_calls: [{ name: 'check_policy', arguments: { days: 3 } }], response_text: null },
        actual: undefined,
      },
    ])
  })

  it('lines up a turn whose arguments changed with its counterpart and reports the argument, with both turn indices', () => {
    const actual: ScriptedTurn[] = [
      ['search', { q: 'refund policy' }, { hits: 2 }],
      ...refund.slice(0, 2),
      ['issue_refund', { order_id: '42', amount: 25 }, { ok: true }],
      refund[3]!,
    ]
    const diff = diffTraces(scriptTrace(refund), scriptTrace(actual))
    expect(
      diff.changes.map(({ kind, subject, turn, call, tool, path, expected, actual }) => ({ kind, subject, turn, call, tool, path, expected, actual })),
    ).toEqual([
      expect.objectContaining({ kind: 'added', subject: 'turn', turn: { expected: null, actual: 0 }, path: 'turns[0]' }),
      {
        kind: 'changed',
        subject: 'arguments',
        turn: { expected: 2, actual: 3 },
        call: { expected: 0, actual: 0 },
        tool: 'issue_refund',
        path: 'turns[3].llm_call.tool_calls[0].arguments.amount',
        expected: 19.99,
        actual: 25,
      },
    ])
    expect(diff.turns.find((t) => t.expected === 2)).toEqual({ expected: 2, actual: 3, status: 'changed' })
  })

  it('reports a turn that called another tool as a removal and an addition', () => {
    const actual = refund.map((turn, i) => (i === 1 ? (['escalate', { reason: 'policy' }, null] as const) : turn))
    const diff = diffTraces(scriptTrace(refund), scriptTrace(actual))
    expect(diff.changes.map((c) => [c.kind, c.subject, c.path])).toEqual([
      ['removed', 'turn', 'turns[1]'],
      ['added', 'turn', 'turns[1]'],
    ])
  })

  it('reports each changed value inside aligned turns: results, errors, response text, leaf by leaf', () => {
    const expected = scriptTrace([
      ['lookup_order', { order_id: '42' }, { order: { amount: 19.99, items: ['book'] } }],
      { name: 'charge', args: { amount: 19.99 }, error: 'card declined' },
      'Sorry.',
    ])
    const actual = scriptTrace([
      ['lookup_order', { order_id: '42' }, { order: { amount: 20, items: ['book', 'pen'] }, cached: true }],
      { name: 'charge', args: { amount: 19.99 }, error: 'timeout' },
      'Sorry!',
    ])
    expect(diffTraces(expected, actual).changes.map((c) => [c.kind, c.subject, c.path, c.expected, c.actual])).toEqual([
      ['changed', 'result', 'turns[0].tool_results[0].result.order.amount', 19.99, 20],
      ['changed', 'result', 'turns[0].tool_results[0].result.order.items', ['book'], ['book', 'pen']],
      ['added', 'result', 'turns[0].tool_results[0].result.cached', undefined, true],
      ['changed', 'error', 'turns[1].tool_results[0].error', 'card declined', 'timeout'],
      ['changed', 'response_text', 'turns[2].llm_call.response_text', 'Sorry.', 'Sorry!'],
    ])
  })

  it('aligns the calls inside a turn: an extra parallel call is one added call with its index', () => {
    const expected = scriptTrace([
      {
        calls: [
          ['search', { q: 'a' }, 1],
          ['search', { q: 'b' }, 2],
        ],
      },
    ])
    const actual = scriptTrace([
      {
        calls: [
          ['search', { q: 'a' }, 1],
          ['lookup', { id: 7 }, 3],
          ['search', { q: 'b' }, 2],
        ],
      },
    ])
    expect(diffTraces(expected, actual).changes).toEqual([
      {
        kind: 'added',
        subject: 'tool_call',
        turn: { expected: 0, actual: 0 },
        call: { expected: null, actual: 1 },
        tool: 'lookup',
        path: 'turns[0].llm_call.tool_calls[1]',
        expected: undefined,
        actual: { name: 'lookup', arguments: { id: 7 } },
      },
    ])
  })

  it('reports a call whose result was never recorded', () => {
    const expected = scriptTrace([['lookup', { id: 1 }, { ok: true }]])
    const actual = scriptTrace([{ name: 'lookup', args: { id: 1 }, noResult: true }])
    expect(diffTraces(expected, actual).changes.map((c) => [c.kind, c.subject, c.path, c.expected])).toEqual([
      ['removed', 'tool_result', 'turns[0].tool_results[0]', { result: { ok: true }, error: null }],
    ])
  })

  it('finds each result by call id when parallel calls were answered out of order', () => {
    const record = (weather: unknown): Trace => {
      const s = new Session('agent', { save: false })
      const [search, forecast] = s.logLlmCall({
        toolCalls: [
          { name: 'search', arguments: { q: 'a' } },
          { name: 'weather', arguments: { city: 'paris' } },
        ],
      })
      s.logToolResult('weather', { callId: forecast!, result: weather })
      s.logToolResult('search', { callId: search!, result: 'hits' })
      return s.trace
    }
    expect(diffTraces(record({ c: 21 }), record({ c: 22 })).changes.map((c) => [c.tool, c.call, c.path])).toEqual([
      ['weather', { expected: 1, actual: 1 }, 'turns[0].tool_results[0].result.c'],
    ])
  })

  it('compares results that belong to no call by position', () => {
    const record = (value: string): Trace => {
      const s = new Session('agent', { save: false })
      s.logLlmCall({ responseText: 'hi' })
      s.logToolResult('webhook', { result: value })
      return s.trace
    }
    expect(diffTraces(record('a'), record('b')).changes.map((c) => [c.kind, c.subject, c.path, c.expected, c.actual])).toEqual([
      ['changed', 'tool_result', 'turns[0].tool_results[0].result', 'a', 'b'],
    ])
  })

  it('pairs turns by position when two long traces have nothing in common (past 1,000 edits)', () => {
    const expected = scriptTrace(Array.from({ length: 600 }, (_, i) => [`a${i}`, {}, i] as const))
    const actual = scriptTrace(Array.from({ length: 600 }, (_, i) => [`b${i}`, {}, i] as const))
    const diff = diffTraces(expected, actual)
    expect(diff.turns.every((t) => t.expected === t.actual)).toBe(true)
    expect(diff.changes.slice(0, 2).map((c) => [c.kind, c.subject, c.tool, c.turn])).toEqual([
      ['removed', 'tool_call', 'a0', { expected: 0, actual: 0 }],
      ['added', 'tool_call', 'b0', { expected: 0, actual: 0 }],
    ])
  })

  it('names the argument that is not a valid trace', () => {
    expect(() => diffTraces({} as never, scriptTrace(refund))).toThrowError(
      new TypeError('diffTraces(): expected must be a trace (an object with turns); got object.'),
    )
  })
})
