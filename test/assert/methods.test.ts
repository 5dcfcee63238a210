import { describe, expect, it } from 'vitest'
import { type AgentAssertionError, assertCalled, assertOn, session, type Session } from '../../src/entries/index.js'
import { TraceAssertions } from '../../src/assert/trace-assertions.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const HINT = ' Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.'

async function refundSession(): Promise<Session<string>> {
  return session('refund-agent', { save: false }, (s) => {
    const [id] = s.logLlmCall({
      toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
      model: 'gpt-4o',
      tokenUsage: { prompt_tokens: 90, completion_tokens: 10 },
    })
    s.logToolResult('lookup_order', { result: { amount: 19.99 }, callId: id! })
    s.logLlmCall({ responseText: 'Refunded.', model: 'gpt-4o', tokenUsage: { input_tokens: 40, output_tokens: 5 } })
    return 'Refunded.'
  })
}

describe('assertion methods', () => {
  it('are on every closed Session, and pass or fail as the pure functions do', async () => {
    const s = await refundSession()
    expect(s).toBeInstanceOf(TraceAssertions)
    s.assertCalled('lookup_order')
    s.assertNeverCalled('issue_refund')
    s.assertCalledWith('lookup_order', { order_id: '42' })
    s.assertCalledTimes('lookup_order', 1)
    s.assertToolSucceeded('lookup_order')
    s.assertFlow(['lookup_order'])
    s.assertMaxTurns(2)
    s.assertTotalDurationUnder({ ms: 60_000 })
    s.assertTotalTokensUnder(145)
    s.assertCostUnder({ usd: 0.01, modelCosts: { 'gpt-4o': { input: 2.5, output: 10 } } })
    s.assertToolOutputMatches('lookup_order', { schema: { type: 'object', required: ['amount'] } })
    const error = failureOf(() => s.assertTotalTokensUnder(144))
    expect(error.assertion).toBe('Total tokens 145 exceeds limit of 144')
    expect(error.traceName).toBe('refund-agent')
  })

  it('read the live trace of an open session', async () => {
    let seen: AgentAssertionError | undefined
    await session('live', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'search' }] })
      s.assertCalled('search')
      seen = failureOf(() => s.assertMaxTurns(0))
      s.logLlmCall({ responseText: 'done' })
      s.assertMaxTurns(2)
    })
    expect(seen?.assertion).toBe('Expected at most 0 turns, got 1')
  })

  it('are on any loaded trace through assertOn()', () => {
    const trace = buildTrace('loaded', [{ calls: [{ name: 'search', result: [] }] }])
    expect(() => assertOn(trace).assertCalled('search')).not.toThrow()
    expect(failureOf(() => assertOn(trace).assertNeverCalled('search')).assertion).toBe('"search" was called in turn(s) [0]')
    expect(assertOn(trace).trace).toBe(trace)
    expect(() => assertOn(null as never)).toThrow(
      new TypeError(`assertOn(): the first argument must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got null.${HINT}`),
    )
  })

  it('and the pure functions accept a Session as well as a Trace', async () => {
    const s = await refundSession()
    expect(() => assertCalled(s, 'lookup_order')).not.toThrow()
    expect(failureOf(() => assertCalled(s, 'issue_refund')).assertion).toBe('"issue_refund" was never called (2 turns, 1 tool calls)')
  })
})
