import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { assertCalled, assertCalledTimes, assertCalledWith, assertNeverCalled, loadChain, session } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { failureOf } from '../helpers/trace-builder.js'
import { matcherFailure, refund, REFUND_TURNS } from './helpers.js'

const lines = (...text: string[]): string => text.join('\n')

describe('toHaveCalledTool()', () => {
  it('passes on a Trace and on a Session when the tool was called', async () => {
    expect(refund).toHaveCalledTool('issue_refund')
    const s = await session('matcher-session', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
    })
    expect(s).toHaveCalledTool('lookup_order')
    expect(s).not.toHaveCalledTool('issue_refund')
  })

  it('passes on an agent of a loaded chain', async () => {
    const traceDir = tempDir()
    await session('support-agent', { traceDir }, async () => {
      await session('billing-agent', { traceDir }, (s) => {
        s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' } }] })
      })
    })
    const chain = loadChain('support-agent', { traceDir })
    expect(chain).not.toHaveCalledTool('issue_refund')
    expect(chain.get('billing-agent')).toHaveCalledTool('issue_refund')
  })

  it('fails with the agent stack trace of assertCalled()', () => {
    const failure = matcherFailure(() => expect(refund).toHaveCalledTool('check_policy'))
    expect(failure.message).toBe(failureOf(() => assertCalled(refund, 'check_policy')).message)
    expect(failure.message.split('\n')[0]).toBe('"check_policy" was never called (3 turns, 2 tool calls)')
    expect(failure.actual).toBeUndefined()
  })

  it('with .not, fails as assertNeverCalled() does: naming the turns of the calls, above the agent stack trace', () => {
    const failure = matcherFailure(() => expect(refund).not.toHaveCalledTool('lookup_order'))
    expect(failure.message).toBe(failureOf(() => assertNeverCalled(refund, 'lookup_order')).message)
    expect(failure.message).toBe(
      lines(
        '"lookup_order" was called in turn(s) [0]',
        '',
        ...REFUND_TURNS,
        '',
        'ASSERTION FAILED: "lookup_order" was called in turn(s) [0]',
        'PROBABLE CAUSE: the first call was lookup_order({"order_id":"42"}) in turn 0',
        '                lookup_order last returned {"amount":19.99} (turn 0)',
      ),
    )
  })

  it('rejects a value that is not a trace, and a tool name that is not a string', () => {
    // @ts-expect-error a number is not a run
    expect(() => expect(42).toHaveCalledTool('x')).toThrow(
      new TypeError(
        'toHaveCalledTool(): the value given to expect() must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got 42 (number). ' +
          'Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.',
      ),
    )
    expect(() => expect(refund).toHaveCalledTool(7 as unknown as string)).toThrow(
      new TypeError('toHaveCalledTool(): tool must be a tool name (a non-empty string), got 7 (number).'),
    )
  })
})

describe('toHaveCalledToolWith()', () => {
  it('passes when some call has the arguments, with vitest asymmetric matchers inside them', () => {
    expect(refund).toHaveCalledToolWith('issue_refund', { order_id: '42' })
    expect(refund).toHaveCalledToolWith('issue_refund', { order_id: expect.stringMatching(/^4/), amount: expect.closeTo(20, 0) })
    expect(refund).not.toHaveCalledToolWith('issue_refund', { order_id: '43' })
  })

  it("fails with assertCalledWith()'s message and the closest call's arguments as actual/expected", () => {
    const partialArgs = { order_id: '42', amount: expect.any(String) }
    const failure = matcherFailure(() => expect(refund).toHaveCalledToolWith('issue_refund', partialArgs))
    const core = failureOf(() => assertCalledWith(refund, 'issue_refund', partialArgs))
    expect(failure.message).toBe(core.message)
    expect(failure.message).toContain(
      'PROBABLE CAUSE: closest call: issue_refund({"order_id":"42","amount":19.99}) in turn 1; amount: expected Any<String>, got 19.99',
    )
    expect(failure.actual).toEqual({ order_id: '42', amount: 19.99 })
    expect(failure.expected).toBe(partialArgs)
  })

  it('with .not, fails naming the call that matched', () => {
    const failure = matcherFailure(() => expect(refund).not.toHaveCalledToolWith('issue_refund', { amount: expect.any(Number) }))
    expect(failure.message).toBe(
      lines(
        'expected no call of "issue_refund" with {"amount": Any<Number>}, but the call in turn 1 matched',
        '',
        ...REFUND_TURNS,
        '',
        'ASSERTION FAILED: expected no call of "issue_refund" with {"amount": Any<Number>}, but the call in turn 1 matched',
        'PROBABLE CAUSE: matching call: issue_refund({"order_id":"42","amount":19.99}) in turn 1',
        '                issue_refund last returned {"ok":true} (turn 1)',
      ),
    )
  })

  it('does not take a key the agent did not send from the prototype', () => {
    const failure = matcherFailure(() => expect(refund).toHaveCalledToolWith('issue_refund', { constructor: expect.anything() }))
    expect(failure.message.split('\n')[0]).toBe(
      '"issue_refund" was called 1 time(s) but none matched expected args. Closest mismatch on key(s): ["constructor"]. Expected: {"constructor": Anything}',
    )
  })

  it('rejects partial arguments that are not an object', () => {
    expect(() => expect(refund).toHaveCalledToolWith('issue_refund', ['42'] as never)).toThrow(
      new TypeError('toHaveCalledToolWith(): partialArgs must be an object, got ["42"] (array).'),
    )
  })
})

describe('toHaveCalledToolTimes()', () => {
  it('passes for an exact count and for a range', () => {
    expect(refund).toHaveCalledToolTimes('issue_refund', 1)
    expect(refund).toHaveCalledToolTimes('issue_refund', { min: 1, max: 3 })
    expect(refund).toHaveCalledToolTimes('check_policy', { max: 0 })
    expect(refund).not.toHaveCalledToolTimes('issue_refund', 2)
  })

  it("fails with assertCalledTimes()'s message, the counts as actual/expected", () => {
    const failure = matcherFailure(() => expect(refund).toHaveCalledToolTimes('issue_refund', { min: 2 }))
    expect(failure.message).toBe(failureOf(() => assertCalledTimes(refund, 'issue_refund', { min: 2 })).message)
    expect(failure.message.split('\n')[0]).toBe('"issue_refund" called 1 times, expected at least 2')
    expect([failure.actual, failure.expected]).toEqual([1, 2])
  })

  it('with .not, fails saying which count was unexpectedly met', () => {
    const failure = matcherFailure(() => expect(refund).not.toHaveCalledToolTimes('issue_refund', { min: 1, max: 3 }))
    expect(failure.message.split('\n')[0]).toBe('expected "issue_refund" not to be called between 1 and 3 times, but it was called 1 time')
    expect(failure.message).toContain('PROBABLE CAUSE: "issue_refund" was called in turn 1\n')
    expect(matcherFailure(() => expect(refund).not.toHaveCalledToolTimes('check_policy', 0)).message.split('\n')[0]).toBe(
      'expected "check_policy" not to be called 0 times, but it was called 0 times',
    )
    expect(matcherFailure(() => expect(refund).not.toHaveCalledToolTimes('lookup_order', { max: 2 })).message.split('\n')[0]).toBe(
      'expected "lookup_order" not to be called at most 2 times, but it was called 1 time',
    )
  })

  it('reports a bad count under its own name', () => {
    expect(() => expect(refund).toHaveCalledToolTimes('issue_refund', { min: 3, max: 1 })).toThrow(
      new RangeError('toHaveCalledToolTimes(): max (1) is less than min (3).'),
    )
    expect(() => expect(refund).toHaveCalledToolTimes('issue_refund', { mn: 1 } as never)).toThrow(
      new TypeError('toHaveCalledToolTimes(): unknown option "mn". Valid options: min, max.'),
    )
  })
})
