import { describe, expect, it } from 'vitest'
import {
  assertCalled,
  assertCalledBefore,
  assertCalledTimes,
  assertNeverCalled,
  assertToolSucceeded,
  AgentAssertionError,
  isReagentError,
} from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const HINT = ' Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.'

const refund = buildTrace('refund-agent', [
  { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99, eligible: true }, ms: 12 }], ms: 15 },
  { calls: [{ name: 'check_policy', args: { days: 3 }, result: { eligible: true } }] },
  { calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99 }, result: { ok: true } }] },
  { text: 'Refunded $19.99 for order 42.' },
])

describe('assertCalled()', () => {
  it('passes when the tool was called', () => {
    expect(() => assertCalled(refund, 'check_policy')).not.toThrow()
  })

  it('fails with the whole agent stack trace, the typo and what was called instead', () => {
    const error = failureOf(() => assertCalled(refund, 'lookup_ordr'))
    expect(error).toBeInstanceOf(AgentAssertionError)
    expect(error.name).toBe('AssertionError')
    expect(isReagentError(error)).toBe(true)
    expect(error.traceName).toBe('refund-agent')
    expect(error.assertion).toBe('"lookup_ordr" was never called (4 turns, 3 tool calls)')
    expect(error.showDiff).toBe(false)
    expect(error.message).toBe(
      [
        '"lookup_ordr" was never called (4 turns, 3 tool calls)',
        '',
        'refund-agent  completed · 4 turns · 3 tool calls · 1.5s',
        '  ✓ Turn 0  15ms  gpt-4o',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"amount":19.99,"eligible":true}  12ms',
        '  ✓ Turn 1  0µs  gpt-4o',
        '      LLM -> check_policy({"days":3})',
        '        ✓ {"eligible":true}',
        '  ✓ Turn 2  0µs  gpt-4o',
        '      LLM -> issue_refund({"order_id":"42","amount":19.99})',
        '        ✓ {"ok":true}',
        '  ✓ Turn 3  0µs  gpt-4o',
        '      LLM -> “Refunded $19.99 for order 42.”',
        '',
        'ASSERTION FAILED: "lookup_ordr" was never called (4 turns, 3 tool calls)',
        'PROBABLE CAUSE: no tool named "lookup_ordr" was called; did you mean lookup_order? "lookup_order" was called in turn 0',
        '                the agent called lookup_order (turn 0), check_policy (turn 1), issue_refund (turn 2), and answered in turn 3: “Refunded $19.99 for order 42.”',
      ].join('\n'),
    )
  })

  it('suggests a called tool whose name contains the asserted one', () => {
    expect(failureOf(() => assertCalled(refund, 'refund')).message).toContain('did you mean issue_refund?')
  })

  it('says when the trace has no turns at all', () => {
    const error = failureOf(() => assertCalled(buildTrace('empty', []), 'lookup'))
    expect(error.assertion).toBe('"lookup" was never called (0 turns, 0 tool calls)')
    expect(error.message).toContain('  (no turns recorded)\n')
    expect(error.message).toContain(
      'PROBABLE CAUSE: the trace has no turns: no LLM call was recorded (is the client instrumented, and called inside the session?)',
    )
  })

  it('rejects a tool name that is not a string', () => {
    expect(() => assertCalled(refund, 42 as unknown as string)).toThrow(
      new TypeError('assertCalled(): tool must be a tool name (a non-empty string), got 42 (number).'),
    )
    expect(() => assertCalled(refund, '')).toThrow(TypeError)
  })

  it('rejects something that is not a trace', () => {
    expect(() => assertCalled({ name: 'x' } as never, 'lookup')).toThrow(
      new TypeError(
        `assertCalled(): the first argument must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got an object with key "name".${HINT}`,
      ),
    )
  })
})

describe('assertNeverCalled()', () => {
  it('passes when the tool was not called', () => {
    expect(() => assertNeverCalled(refund, 'delete_account')).not.toThrow()
  })

  it('lists the turn of every call, as reagent-flow 0.5 does, and shows the first call', () => {
    const trace = buildTrace('loop', [
      {
        calls: [
          { name: 'search', args: { q: 'a' } },
          { name: 'search', args: { q: 'b' } },
        ],
      },
      { calls: [{ name: 'search' }] },
    ])
    const error = failureOf(() => assertNeverCalled(trace, 'search'))
    expect(error.assertion).toBe('"search" was called in turn(s) [0, 0, 1]')
    expect(error.message).toContain('PROBABLE CAUSE: the first call was search({"q":"a"}) in turn 0\n')
  })
})

describe('assertCalledBefore()', () => {
  it('passes when the first call of one precedes the first call of the other', () => {
    expect(() => assertCalledBefore(refund, 'lookup_order', 'issue_refund')).not.toThrow()
  })

  it('orders parallel calls of one turn by their position', () => {
    const parallel = buildTrace('parallel', [{ calls: [{ name: 'b' }, { name: 'a' }] }])
    expect(() => assertCalledBefore(parallel, 'b', 'a')).not.toThrow()
    expect(failureOf(() => assertCalledBefore(parallel, 'a', 'b')).assertion).toBe('"a" (position 1) was not called before "b" (position 0)')
  })

  it('fails with the positions and the actual order', () => {
    const error = failureOf(() => assertCalledBefore(refund, 'issue_refund', 'check_policy'))
    expect(error.assertion).toBe('"issue_refund" (position 2) was not called before "check_policy" (position 1)')
    expect(error.message).toContain(
      'PROBABLE CAUSE: "check_policy" was first called in turn 1, "issue_refund" only in turn 2; call order: lookup_order, check_policy, issue_refund',
    )
  })

  it('names the tool that was never called', () => {
    expect(failureOf(() => assertCalledBefore(refund, 'escalate', 'issue_refund')).assertion).toBe('"escalate" was never called')
    expect(failureOf(() => assertCalledBefore(refund, 'lookup_order', 'escalate')).assertion).toBe('"escalate" was never called')
  })
})

describe('assertToolSucceeded()', () => {
  const flaky = buildTrace('flaky', [
    {
      calls: [
        { name: 'search', args: { q: 'paris' }, result: { temp_c: 18 } },
        { name: 'search', args: { q: 'rome' }, error: 'TimeoutError: upstream took 30s' },
      ],
    },
    { calls: [{ name: 'notify', noResult: true }] },
  ])

  it('passes when every call has a result without error', () => {
    expect(() => assertToolSucceeded(refund, 'issue_refund')).not.toThrow()
  })

  it('fails on the first error, with the arguments of the failed call', () => {
    const error = failureOf(() => assertToolSucceeded(flaky, 'search'))
    expect(error.assertion).toBe('"search" failed in turn 0: TimeoutError: upstream took 30s')
    expect(error.message.endsWith('\nPROBABLE CAUSE: search({"q":"rome"}) failed in turn 0: TimeoutError: upstream took 30s')).toBe(true)
  })

  it('fails when a call has no recorded result, and says how to record one', () => {
    const error = failureOf(() => assertToolSucceeded(flaky, 'notify'))
    expect(error.assertion).toBe('"notify" in turn 1 has no recorded result')
    expect(error.message).toContain(
      'PROBABLE CAUSE: notify({}) (call_id call_3) got no result: log it with logToolResult("notify", { callId: "call_3", ... }), or wrap the tool with traceTool()',
    )
  })

  it('fails when the tool was never called', () => {
    expect(failureOf(() => assertToolSucceeded(flaky, 'lookup')).assertion).toBe('"lookup" was never called (2 turns, 3 tool calls)')
  })
})

describe('assertCalledTimes()', () => {
  const searches = buildTrace('searches', [
    {
      calls: [
        { name: 'search', args: { q: 'x' }, result: { hits: [] } },
        { name: 'search', args: { q: 'x' }, result: { hits: [] } },
      ],
    },
    { calls: [{ name: 'search', args: { q: 'x' }, result: { hits: [] } }] },
    { calls: [{ name: 'search', args: { q: 'y' }, result: { hits: [] } }] },
  ])

  it('passes within the bounds, and for an exact count', () => {
    expect(() => assertCalledTimes(searches, 'search', { min: 1, max: 4 })).not.toThrow()
    expect(() => assertCalledTimes(searches, 'search', 4)).not.toThrow()
    expect(() => assertCalledTimes(searches, 'lookup', { max: 0 })).not.toThrow()
  })

  it('fails above max with the count as a diff and the repeated call', () => {
    const error = failureOf(() => assertCalledTimes(searches, 'search', { max: 2 }))
    expect(error.assertion).toBe('"search" called 4 times, expected at most 2')
    expect([error.actual, error.expected, error.showDiff]).toEqual([4, 2, true])
    expect(error.message).toContain(
      'PROBABLE CAUSE: search({"q":"x"}) was called 3 times with the same arguments (turns 0, 1): the agent may be looping\n' +
        '                search last returned {"hits":[]} (turn 2)\n' +
        '                "search" was called in turns 0 (2 calls), 1, 2',
    )
  })

  it('fails below min', () => {
    const error = failureOf(() => assertCalledTimes(searches, 'search', { min: 5 }))
    expect(error.assertion).toBe('"search" called 4 times, expected at least 5')
    expect([error.actual, error.expected]).toEqual([4, 5])
    expect(failureOf(() => assertCalledTimes(searches, 'search', 3)).assertion).toBe('"search" called 4 times, expected at most 3')
  })

  it('rejects bad bounds, naming them', () => {
    expect(() => assertCalledTimes(searches, 'search', { min: 3, max: 1 })).toThrow(new RangeError('assertCalledTimes(): max (1) is less than min (3).'))
    expect(() => assertCalledTimes(searches, 'search', { min: -1 })).toThrow(
      new RangeError('assertCalledTimes(): min must be a whole number >= 0, got -1 (number).'),
    )
    expect(() => assertCalledTimes(searches, 'search', 1.5)).toThrow(
      new RangeError('assertCalledTimes(): times must be a whole number >= 0, got 1.5 (number).'),
    )
    expect(() => assertCalledTimes(searches, 'search', { mn: 1 } as never)).toThrow(
      new TypeError('assertCalledTimes(): unknown option "mn". Valid options: min, max.'),
    )
  })
})
