import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { test } from '../../src/entries/vitest.js'
import { loadTrace } from '../../src/entries/index.js'
import { fullTestName } from '../../src/vitest/test-scope.js'

const traceDir = mkdtempSync(join(tmpdir(), 'reagent-fixture-'))
afterAll(() => rmSync(traceDir, { recursive: true, force: true }))

describe('agentSession', () => {
  test.override({ reagentOptions: { traceDir, metadata: { suite: 'fixture' } } })

  test('names the session after the test', async ({ agentSession }) => {
    const s = await agentSession((s) => {
      s.logLlmCall({ responseText: 'Hello.' })
      return 'done'
    })
    expect(s.name).toBe('agentSession > names the session after the test')
    expect(s.output).toBe('done')
    // Inside vitest a run belongs to its test file.
    expect(s.path).toBe(join(traceDir, 'test', 'vitest', 'fixture.test.ts', 'agentSession___names_the_session_after_the_test.trace.json'))
    expect(loadTrace(s.path!).metadata).toEqual({ suite: 'fixture' })
  })

  describe('in nested describe blocks', () => {
    test('keeps every level in the name', async ({ agentSession }) => {
      const s = await agentSession(() => undefined)
      expect(s.name).toBe('agentSession > in nested describe blocks > keeps every level in the name')
    })
  })

  test('numbers later sessions of the same name, and appends a given name', async ({ agentSession }) => {
    const names = []
    for (let i = 0; i < 3; i++) names.push((await agentSession(() => i)).name)
    names.push((await agentSession({ name: 'billing' }, () => 'billed')).name)
    names.push((await agentSession({ name: 'billing' }, () => 'billed again')).name)
    const base = 'agentSession > numbers later sessions of the same name, and appends a given name'
    expect(names).toEqual([base, `${base} #2`, `${base} #3`, `${base} > billing`, `${base} > billing #2`])
  })

  test('takes per-session options over the defaults, merging metadata', async ({ agentSession }) => {
    const s = await agentSession({ metadata: { goal: 'refund' }, save: false }, () => 1)
    expect(s.trace.metadata).toEqual({ suite: 'fixture', goal: 'refund' })
    expect(s.path).toBeUndefined()
  })

  test('rethrows what the agent threw, after writing the failed trace', async ({ agentSession }) => {
    await expect(agentSession(() => Promise.reject(new Error('model down')))).rejects.toThrow('model down')
    const trace = loadTrace(
      join(traceDir, 'test', 'vitest', 'fixture.test.ts', 'agentSession___rethrows_what_the_agent_threw__after_writing_the_failed_trace.trace.json'),
    )
    expect(trace.status).toBe('failed')
  })

  test('rethrows the very error object the agent threw, untouched', async ({ agentSession }) => {
    const error = new Error('downstream exploded')
    const before = Object.getOwnPropertyNames(error)
    let caught: unknown
    try {
      await agentSession(() => {
        throw error
      })
    } catch (thrown) {
      caught = thrown
    }
    expect(caught).toBe(error)
    expect(Object.getOwnPropertyNames(error)).toEqual(before)
    expect(error.cause).toBeUndefined()
  })

  test('rejects bad arguments with the option named', async ({ agentSession }) => {
    await expect(agentSession({ name: '' }, () => 1)).rejects.toThrow(new TypeError('agentSession(): options.name must be a non-empty string, got "".'))
    await expect(agentSession(null as never, () => 1)).rejects.toThrow(new TypeError('agentSession() options must be an object, got null.'))
    await expect((agentSession as (options: object) => Promise<unknown>)({})).rejects.toThrow(
      new TypeError('agentSession() needs a function to run, as its last argument.'),
    )
    await expect(agentSession({ tracedir: 'x' } as never, () => 1)).rejects.toThrow(/^Unknown session\(\) option "tracedir"\. Valid options: traceDir, /)
  })
})

test('uses the default options outside an override', async ({ agentSession, reagentOptions }) => {
  expect(reagentOptions).toEqual({})
  const s = await agentSession({ save: false }, () => 1)
  expect(s.name).toBe('uses the default options outside an override')
})

describe('fullTestName()', () => {
  it("is vitest's fullTestName where there is one", () => {
    expect(fullTestName({ name: 'b', fullTestName: 'a > b' })).toBe('a > b')
  })

  it('is built from the describe blocks below the file where vitest has none (4.0)', () => {
    const file = { name: 'test/refund.test.ts' } as { name: string; file?: unknown }
    file.file = file
    const outer = { name: 'refund agent', suite: file, file }
    const inner = { name: 'damaged items', suite: outer, file }
    expect(fullTestName({ name: 'refunds order 42', suite: inner, file })).toBe('refund agent > damaged items > refunds order 42')
    expect(fullTestName({ name: 'refunds order 42', suite: file, file })).toBe('refunds order 42')
  })
})
