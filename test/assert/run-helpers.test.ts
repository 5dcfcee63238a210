import { describe, expect, it } from 'vitest'
import { assertOn, loadChain, session, type Session } from '../../src/entries/index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { internals } from '../../src/session/internals.js'

function supportAgent(s: Session): string {
  s.logLlmCall({
    toolCalls: [
      { name: 'search', arguments: { q: 'refund policy' } },
      { name: 'lookup_order', arguments: { order_id: '42' } },
    ],
  })
  s.logToolResult('search', { result: ['30 days'] })
  s.logToolResult('lookup_order', { result: { amount: 19.99 } })
  s.logLlmCall({ responseText: 'Let me refund that.', toolCalls: [{ name: 'search', arguments: { q: 'refund form' } }] })
  s.logToolResult('search', { result: ['form A'] })
  return 'done'
}

describe('toolCalls(), toolNames() and finalAnswer', () => {
  it('read a Session: every tool call in order, those of one tool, their names, and the last text answer', async () => {
    const s = await session('support-agent', { save: false }, supportAgent)
    expect(s.toolNames()).toEqual(['search', 'lookup_order', 'search'])
    expect(s.toolCalls('search').map((call) => call.arguments)).toEqual([{ q: 'refund policy' }, { q: 'refund form' }])
    expect(s.toolCalls().map((call) => call.call_id)).toEqual(s.trace.turns.flatMap((turn) => turn.llm_call.tool_calls.map((call) => call.call_id)))
    expect(s.toolCalls('delete_account')).toEqual([])
    // The last turn asked for a tool and said something: that text is the last answer.
    expect(s.finalAnswer).toBe('Let me refund that.')
  })

  it('read a chain node and a loaded trace the same way, from one implementation', async () => {
    const s = await session('support-agent', { save: false }, async (s) => {
      await session('billing-agent', { save: false }, (b) =>
        b.logLlmCall({ responseText: 'Charged back.', toolCalls: [{ name: 'charge_back', arguments: {} }] }),
      )
      return supportAgent(s)
    })
    const chain = loadChain(s)
    expect(chain.toolNames()).toEqual(s.toolNames())
    expect(
      chain
        .get('billing-agent')
        .toolCalls()
        .map((call) => call.name),
    ).toEqual(['charge_back'])
    expect(chain.get('billing-agent').finalAnswer).toBe('Charged back.')
    expect(assertOn(s.trace).finalAnswer).toBe('Let me refund that.')
  })

  it('say null for a run that never answered in text, and read an open session as it is so far', async () => {
    expect(assertOn(buildTrace('silent', [{ calls: [{ name: 'notify', result: 'sent' }] }])).finalAnswer).toBeNull()
    await session('live', { save: false }, (s) => {
      expect(s.finalAnswer).toBeNull()
      s.logLlmCall({ responseText: 'First.' })
      expect(s.finalAnswer).toBe('First.')
    })
  })
})

describe('output', () => {
  it('is what the function returned, also when the session was closed from outside before it returned', async () => {
    const s = await session('slow-agent', { save: false }, async (s) => {
      s[internals].closeNow('cancelled', 'the test ended first')
      await new Promise((resolve) => setImmediate(resolve))
      return 'late answer'
    })
    expect([s.status, s.output]).toEqual(['cancelled', 'late answer'])
  })
})
