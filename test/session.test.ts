import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { SessionClosedError, currentSession, loadTrace, session, type Session } from '../src/entries/index.js'
import { APIUserAbortError } from 'openai'
import { tempDir } from './helpers/temp-dir.js'
import { internals } from '../src/session/internals.js'

describe('session()', () => {
  it('records an LLM call and its tool result as one turn and writes <traceDir>/<name>.trace.json', async () => {
    const traceDir = tempDir()
    const s = await session('refund-agent', { traceDir }, async (s) => {
      const [id] = s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: { id: '42' } }], model: 'gpt-4o' })
      s.logToolResult('lookup', { result: { ok: true }, callId: id!, durationMs: 3 })
      s.logLlmCall({ responseText: 'Refunded.', toolCalls: [] })
      return 'Refunded.'
    })

    expect(s.output).toBe('Refunded.')
    expect(s.closed).toBe(true)
    expect(s.path).toBe(join(traceDir, 'refund-agent.trace.json'))
    const written = loadTrace(s.path!)
    expect(written).toEqual(JSON.parse(JSON.stringify(s.trace)))
    expect(written.status).toBe('completed')
    expect(written.turns).toHaveLength(2)
    expect(written.turns[0]!.llm_call.tool_calls).toEqual([
      { name: 'lookup', arguments: { id: '42' }, call_id: written.turns[0]!.tool_results[0]!.call_id, timestamp: written.turns[0]!.llm_call.timestamp },
    ])
    expect(written.turns[0]!.tool_results[0]).toMatchObject({ result: { ok: true }, error: null, duration_ms: 3 })
    expect(written.turns[1]!.llm_call.response_text).toBe('Refunded.')
    expect(written.ended_at!).toBeGreaterThanOrEqual(written.started_at)
  })

  it('accepts a synchronous function and no options', async () => {
    const cwd = process.cwd()
    const dir = tempDir()
    process.chdir(dir)
    try {
      const s = await session('sync', (s) => {
        s.logLlmCall({ responseText: 'hi' })
        return 7
      })
      expect(s.output).toBe(7)
      expect(existsSync(join(dir, '.reagent', 'sync.trace.json'))).toBe(true)
    } finally {
      process.chdir(cwd)
    }
  })

  it('writes the trace with status "failed" and rethrows the original error when fn throws', async () => {
    const traceDir = tempDir()
    const boom = new RangeError('model refused')
    let seen: Session | undefined
    await expect(
      session('failing', { traceDir }, async (s) => {
        seen = s
        s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'x' } }] })
        throw boom
      }),
    ).rejects.toBe(boom)

    const written = loadTrace(join(traceDir, 'failing.trace.json'))
    expect(written.status).toBe('failed')
    expect(written.error).toMatchObject({ name: 'RangeError', message: 'model refused' })
    expect(written.error?.stack).toContain('RangeError: model refused')
    expect(written.turns).toHaveLength(1)
    expect(seen?.closed).toBe(true)
  })

  it('marks an aborted run as "cancelled"', async () => {
    const traceDir = tempDir()
    const controller = new AbortController()
    controller.abort()
    await expect(
      session('aborted', { traceDir }, () => {
        controller.signal.throwIfAborted()
      }),
    ).rejects.toMatchObject({ name: 'AbortError' })
    expect(loadTrace(join(traceDir, 'aborted.trace.json')).status).toBe('cancelled')
  })

  it('writes the run, and its golden to <traceDir>/golden/<name>.trace.json with golden: true (outside a test)', async () => {
    const traceDir = tempDir()
    const s = await session('baseline', { traceDir, golden: true }, (s) => void s.logLlmCall({ responseText: 'ok' }))
    expect(s.path).toBe(join(traceDir, 'baseline.trace.json'))
    expect(readFileSync(join(traceDir, 'golden', 'baseline.trace.json'), 'utf8')).toContain('"trace_id": "golden"')
  })

  it('says in the run file of a golden: true run that it asked for its golden (golden: true, for approve --all); its golden never holds the mark', async () => {
    const traceDir = tempDir()
    const s = await session('baseline', { traceDir, golden: true }, (s) => void s.logLlmCall({ responseText: 'ok' }))
    const run = readFileSync(s.path!, 'utf8')
    expect(run.endsWith('  "golden": true\n}\n')).toBe(true)
    expect(readFileSync(join(traceDir, 'golden', 'baseline.trace.json'), 'utf8')).not.toContain('"golden":')
    const plain = await session('plain', { traceDir }, (s) => void s.logLlmCall({ responseText: 'ok' }))
    expect(loadTrace(plain.path!).golden).toBeUndefined()
  })

  it("marks a run cancelled when the agent stops on the SDK's user abort (APIUserAbortError)", async () => {
    const traceDir = tempDir()
    const abort = new APIUserAbortError()
    await expect(session('stopped', { traceDir }, () => Promise.reject(abort))).rejects.toBe(abort)
    expect(loadTrace(join(traceDir, 'stopped.trace.json'))).toMatchObject({ status: 'cancelled', error: { name: 'APIUserAbortError' } })
  })

  it('with golden: true under CI, never writes a golden: a missing one rejects, naming the file', async () => {
    const traceDir = tempDir()
    vi.stubEnv('CI', 'true')
    vi.stubEnv('REAGENT_UPDATE', '')
    try {
      await expect(session('baseline', { traceDir, golden: true }, (s) => void s.logLlmCall({ responseText: 'ok' }))).rejects.toThrow(
        `No golden baseline for "baseline" at ${join(traceDir, 'golden', 'baseline.trace.json')}, and goldens are not written when the update mode is "none"`,
      )
    } finally {
      vi.unstubAllEnvs()
    }
    expect(existsSync(join(traceDir, 'golden'))).toBe(false)
    expect(existsSync(join(traceDir, 'baseline.trace.json'))).toBe(true)
  })

  it('with golden: true, compares an existing golden (never rewrites it) and rejects with the diff when the run differs', async () => {
    const traceDir = tempDir()
    vi.stubEnv('CI', '')
    vi.stubEnv('REAGENT_UPDATE', '')
    try {
      await session('baseline', { traceDir, golden: true }, (s) => void s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'a' } }] }))
      const before = readFileSync(join(traceDir, 'golden', 'baseline.trace.json'), 'utf8')
      const changed = session('baseline', { traceDir, golden: true }, (s) => void s.logLlmCall({ toolCalls: [{ name: 'fetch', arguments: {} }] }))
      await expect(changed).rejects.toThrow(`Trace "baseline" does not match its golden baseline (${join(traceDir, 'golden', 'baseline.trace.json')}):`)
      expect(readFileSync(join(traceDir, 'golden', 'baseline.trace.json'), 'utf8')).toBe(before)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('tells its traceDir (default ".reagent") and redact option, for goldens written later', async () => {
    const s = await session('settings', { save: false, redact: ['ssn'] }, () => undefined)
    expect([s.traceDir, s.redact]).toEqual(['.reagent', ['ssn']])
    const elsewhere = await session('settings', { save: false, traceDir: 'test/.traces' }, () => undefined)
    expect([elsewhere.traceDir, elsewhere.redact]).toEqual(['test/.traces', undefined])
  })

  it('keeps the trace in memory only with save: false', async () => {
    const traceDir = tempDir()
    const s = await session('memory', { traceDir, save: false }, (s) => void s.logLlmCall({ responseText: 'ok' }))
    expect(s.path).toBeUndefined()
    expect(existsSync(join(traceDir, 'memory.trace.json'))).toBe(false)
    expect(s.trace.turns).toHaveLength(1)
  })

  it('keeps metadata, session and user ids, and the handoff context on the trace', async () => {
    const s = await session(
      'ids',
      { save: false, metadata: { goal: 'refund', budget_usd: 0.5 }, sessionId: 'conv-1', userId: 'u-9', handoffContext: { order: 42 } },
      () => undefined,
    )
    expect(s.trace).toMatchObject({
      metadata: { goal: 'refund', budget_usd: 0.5 },
      session_id: 'conv-1',
      user_id: 'u-9',
      handoff_context: { order: 42 },
      parent_trace_id: null,
    })
  })

  it('throws SessionClosedError when logging after the session closed', async () => {
    const s = await session('closed', { save: false }, () => undefined)
    expect(() => s.logLlmCall({ responseText: 'late' })).toThrow(SessionClosedError)
    expect(() => s.logToolResult('search', { result: 1 })).toThrowError(
      'Cannot log a result of "search" on session "closed": it is closed and its trace has been finalised. ' +
        'Record inside the session callback, and await every tool or model call before the callback returns.',
    )
    expect(() => s[internals].logResultOf('call_1', () => ({ result: 1 }))).toThrowError(
      'Cannot log the result of call "call_1" on session "closed": it is closed and its trace has been finalised. ' +
        'Record inside the session callback, and await every tool or model call before the callback returns.',
    )
  })

  it('rejects an unknown option with the list of valid ones', async () => {
    await expect(session('typo', { tracedir: '/tmp' } as never, () => undefined)).rejects.toThrowError(
      'Unknown session() option "tracedir". Valid options: traceDir, golden, parentTraceId, handoffContext, metadata, sessionId, userId, redact, save, journal, ledger, replay, strict, replayTools, faults, limits.',
    )
  })

  it('rejects a name that sanitises to nothing before running fn', async () => {
    let ran = false
    await expect(session('../..', { save: false }, () => void (ran = true))).rejects.toThrowError(
      'The trace name "../.." has no character usable in a file name. Name the session with letters, digits, "-", "_" or ".".',
    )
    expect(ran).toBe(false)
  })

  it('waits for tracked background work before finalising', async () => {
    const s = await session('tracked', { save: false }, (s) => {
      s[internals].track(
        new Promise<void>((resolve) =>
          setTimeout(() => {
            s.logLlmCall({ responseText: 'late callback' })
            resolve()
          }, 20),
        ),
      )
    })
    expect(s.trace.turns.map((t) => t.llm_call.response_text)).toEqual(['late callback'])
  })

  it('runs before-close hooks inside the session, after fn settles', async () => {
    const order: string[] = []
    const s = await session('hooks', { save: false }, (s) => {
      s[internals].beforeClose(async () => {
        order.push(`hook sees ${currentSession()?.name}`)
        s.logLlmCall({ responseText: 'flushed' })
      })
      order.push('fn')
    })
    expect(order).toEqual(['fn', 'hook sees hooks'])
    expect(s.trace.turns).toHaveLength(1)
  })

  it('waits for tracked work before running the before-close hooks, and again for work a hook starts', async () => {
    const order: string[] = []
    const later = (ms: number, what: string): Promise<void> => new Promise((resolve) => setTimeout(() => resolve(void order.push(what)), ms))
    await session('close-order', { save: false }, (s) => {
      s[internals].track(later(20, 'tracked work'))
      s[internals].beforeClose(() => {
        order.push('hook')
        s[internals].track(later(10, 'work the hook started'))
      })
    })
    expect(order).toEqual(['tracked work', 'hook', 'work the hook started'])
  })
})

describe('nested sessions', () => {
  it('makes a session opened inside another its child', async () => {
    let child: Session | undefined
    const parent = await session('planner', { save: false }, async () => {
      child = await session('researcher', { save: false, handoffContext: { topic: 'llm testing' } }, () => undefined)
    })
    expect(child!.trace.parent_trace_id).toBe(parent.trace.trace_id)
    expect(child!.trace.handoff_context).toEqual({ topic: 'llm testing' })
  })

  it('uses an explicit parentTraceId, and null opts out of the link', async () => {
    let explicit: Session | undefined
    let detached: Session | undefined
    await session('outer', { save: false }, async () => {
      explicit = await session('a', { save: false, parentTraceId: 'EXTERNAL' }, () => undefined)
      detached = await session('b', { save: false, parentTraceId: null }, () => undefined)
    })
    expect(explicit!.trace.parent_trace_id).toBe('EXTERNAL')
    expect(detached!.trace.parent_trace_id).toBeNull()
  })

  it('restores the outer session as current after the inner one closes', async () => {
    const seen: Array<string | undefined> = []
    await session('outer', { save: false }, async () => {
      seen.push(currentSession()?.name)
      await session('inner', { save: false }, () => void seen.push(currentSession()?.name))
      seen.push(currentSession()?.name)
    })
    seen.push(currentSession()?.name)
    expect(seen).toEqual(['outer', 'inner', 'outer', undefined])
  })
})

describe.concurrent('1,000 concurrent sessions', () => {
  it('never mix their records', async () => {
    const sessions = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        session(`agent-${i}`, { save: false, metadata: { i } }, async () => {
          for (let turn = 0; turn < 3; turn++) {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
            const s = currentSession()!
            const [id] = s.logLlmCall({ toolCalls: [{ name: 'work', arguments: { agent: i, turn } }] })
            await Promise.resolve()
            currentSession()!.logToolResult('work', { callId: id!, result: `agent ${i} turn ${turn}` })
          }
          return i
        }),
      ),
    )
    sessions.forEach((s, i) => {
      expect(s.output).toBe(i)
      expect(s.trace.turns.map((t) => t.llm_call.tool_calls[0]!.arguments)).toEqual([
        { agent: i, turn: 0 },
        { agent: i, turn: 1 },
        { agent: i, turn: 2 },
      ])
      expect(s.trace.turns.map((t) => t.tool_results[0]!.result)).toEqual([`agent ${i} turn 0`, `agent ${i} turn 1`, `agent ${i} turn 2`])
    })
    expect(new Set(sessions.map((s) => s.traceId)).size).toBe(1000)
  })
})

describe('logging calls of the wrong shape', () => {
  it('rejects a call that is not an object, naming the form it takes', async () => {
    await expect(session('bad-call', { save: false }, (s) => void s.logLlmCall(undefined as never))).rejects.toThrowError(
      new TypeError('logLlmCall() takes an object such as { toolCalls: [{ name, arguments }], responseText, model }, got undefined.'),
    )
  })

  it('rejects tool calls that are not a list of named calls, naming the entry', async () => {
    await expect(session('bad-tools', { save: false }, (s) => void s.logLlmCall({ toolCalls: 'search' as never }))).rejects.toThrowError(
      'logLlmCall(): toolCalls must be an array of { name, arguments, callId? }, got the string "search".',
    )
    await expect(
      session('bad-tool', { save: false }, (s) => void s.logLlmCall({ toolCalls: [{ name: 'a' }, { arguments: {} } as never] })),
    ).rejects.toThrowError('logLlmCall(): toolCalls[1] must be { name, arguments, callId? } with the tool name as a non-empty string, got name undefined.')
  })

  it('takes a single tool call object and a single message as they are meant', async () => {
    const s = await session('single', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: { name: 'search', arguments: { q: 'x' } } as never, messages: 'hello' as never })
    })
    expect(s.trace.turns[0]!.llm_call.tool_calls.map((c) => c.name)).toEqual(['search'])
    expect(s.trace.turns[0]!.llm_call.messages).toEqual([{ role: 'user', content: 'hello' }])
  })

  it('rejects a result without a tool name, and a bare value instead of { result }', async () => {
    await expect(session('no-name', { save: false }, (s) => s.logToolResult(42 as never, { result: 1 }))).rejects.toThrowError(
      'logToolResult(name, { result }) needs the tool name as a non-empty string first, got number.',
    )
    await expect(session('bare', { save: false }, (s) => s.logToolResult('lookup', 'found' as never))).rejects.toThrowError(
      'logToolResult("lookup", ...) takes { result, error, callId, durationMs } as its second argument, got the string "found". ' +
        'Wrap the value: logToolResult("lookup", { result: value }).',
    )
  })

  it('records a result given with no options as a result without a value', async () => {
    const s = await session('no-options', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'ping' }] })
      s.logToolResult('ping', null as never)
    })
    expect(s.trace.turns[0]!.tool_results).toMatchObject([{ result: null, error: null }])
  })
})
