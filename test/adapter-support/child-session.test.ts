import { describe, expect, it } from 'vitest'
import { noteOnTrace, noteOnTurn, noteOnTurnOfCall, openChildSession, type Session } from '../../src/adapter-support/index.js'
import { loadChain, session } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'

describe("openChildSession: a session an SDK's events open and close", () => {
  it('writes the child next to its parent, linked, with the handoff context and metadata given, once closed', async () => {
    const traceDir = tempDir()
    let closed: Promise<void> | undefined
    await session('parent', { traceDir, redact: ['order_id'] }, (parent) => {
      const child = openChildSession(parent, 'child agent', { handoffContext: { order_id: '42' }, metadata: { handoff_from: 'parent' } })!
      child.session.logLlmCall({ responseText: 'done' })
      closed = child.close()
      expect(child.close()).toBe(closed)
    })
    await closed
    const chain = loadChain('parent', { traceDir })
    const child = chain.get('child agent')
    expect([child.trace.parent_trace_id, child.trace.status, child.trace.metadata, child.trace.handoff_context]).toEqual([
      chain.traceId,
      'completed',
      { handoff_from: 'parent' },
      { order_id: '[REDACTED]' },
    ])
  })

  it('closes a child its parent outlived as failed, saying so, before the parent is written', async () => {
    const traceDir = tempDir()
    await session('parent', { traceDir }, (parent) => {
      openChildSession(parent, 'stuck', { handoffContext: null })!.session.logLlmCall({ responseText: 'half' })
    })
    const stuck = loadChain('parent', { traceDir }).get('stuck').trace
    expect([stuck.status, stuck.error?.message, stuck.turns.length]).toEqual([
      'failed',
      'the session "parent" closed before the agent "stuck" it started had finished',
      1,
    ])
  })

  it('fails a child closed with an error, and gives no session for a name with nothing usable in a file name', async () => {
    const traceDir = tempDir()
    await session('parent', { traceDir }, async (parent) => {
      await openChildSession(parent, 'failing', { handoffContext: null })!.close(new Error('Guardrail tripwire triggered'))
      expect(openChildSession(parent, '...', { handoffContext: null })).toBeUndefined()
    })
    expect(loadChain('parent', { traceDir }).get('failing').trace.error).toMatchObject({ name: 'Error', message: 'Guardrail tripwire triggered' })
  })
})

describe('turn notes: facts kept beside the calls', () => {
  it('appends to the latest turn, keeps notes made before the first turn for it, and finds the turn of a call', async () => {
    let s!: Session
    await session('notes', { save: false }, (opened) => {
      s = opened
      noteOnTurn(s, 'guardrails', { name: 'input', triggered: false })
      const [id] = s.logLlmCall({ toolCalls: [{ name: 'search' }] })
      s.logLlmCall({ responseText: 'done' })
      noteOnTurn(s, 'guardrails', { name: 'output', triggered: false })
      expect(noteOnTurnOfCall(s, id!, 'mcp_calls', { name: 'search', server: 'docs' })).toBe(true)
      expect(noteOnTurnOfCall(s, 'nobody', 'mcp_calls', { name: 'x', server: null })).toBe(false)
      noteOnTrace(s, 'mcp_tools', { server: 'docs', tools: ['search'] })
      noteOnTrace(s, 'mcp_tools', { server: 'docs', tools: ['search'] })
    })
    expect(s.trace.turns.map((turn) => [turn['guardrails'], turn['mcp_calls']])).toEqual([
      [[{ name: 'input', triggered: false }], [{ name: 'search', server: 'docs' }]],
      [[{ name: 'output', triggered: false }], undefined],
    ])
    expect(s.trace['mcp_tools']).toEqual([{ server: 'docs', tools: ['search'] }])
  })

  it('keeps notes of a session that never had a turn on its trace', async () => {
    const s = await session('no-turns', { save: false }, (s) => noteOnTurn(s, 'guardrails', { name: 'input', triggered: true }))
    expect(s.trace['guardrails']).toEqual([{ name: 'input', triggered: true }])
  })
})
