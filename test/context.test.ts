import { describe, expect, it } from 'vitest'
import { currentSession, getRunContext, session } from '../src/entries/index.js'

describe('getRunContext()', () => {
  it('returns an empty context outside a session and never throws', () => {
    expect(getRunContext()).toEqual({ runId: undefined, sessionId: undefined, userId: undefined, metadata: {} })
  })

  it('returns the ids and metadata of the active session, runId being the trace_id', async () => {
    let context: ReturnType<typeof getRunContext> | undefined
    const s = await session('ctx', { save: false, sessionId: 'conv-7', userId: 'ada', metadata: { goal: 'g' } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      context = getRunContext()
    })
    expect(context).toEqual({ runId: s.traceId, sessionId: 'conv-7', userId: 'ada', metadata: { goal: 'g' } })
    expect(s.traceId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it('returns a copy of the metadata, so callers cannot change the trace', async () => {
    const s = await session('copy', { save: false, metadata: { a: 1 } }, () => {
      getRunContext().metadata.a = 2
    })
    expect(s.trace.metadata).toEqual({ a: 1 })
  })
})

describe('currentSession()', () => {
  it('is undefined outside a session', () => {
    expect(currentSession()).toBeUndefined()
  })

  it('is undefined in callbacks that outlive their session', async () => {
    let late: unknown = 'not run'
    let done!: () => void
    const finished = new Promise<void>((resolve) => (done = resolve))
    await session('short', { save: false }, () => {
      setTimeout(() => {
        late = currentSession()
        done()
      }, 10)
    })
    await finished
    expect(late).toBeUndefined()
  })
})

describe.concurrent('concurrent sessions', () => {
  for (const name of ['alpha', 'beta', 'gamma']) {
    it(`sees only its own session (${name})`, async () => {
      await session(name, { save: false }, async () => {
        for (let i = 0; i < 5; i++) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
          expect(currentSession()?.name).toBe(name)
        }
      })
    })
  }
})
