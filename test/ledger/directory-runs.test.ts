import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger, T0, type TestLedger } from './harness.js'

/** Polls run.list until `ready` holds (the directory watch is asynchronous); fails after 5 s. */
async function eventually<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 5000
  for (;;) {
    const value = await read()
    if (ready(value) || Date.now() > until) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const listed = (ledger: TestLedger) => () => ledger.call<{ runs: Array<Record<string, unknown>>; total: number }>('run.list', { order_by: 'started_asc' })

describe('the directory store', () => {
  it('serves the runs session() wrote to the directory as runs of its own org and namespace, without being told', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir, org: 'acme', namespace: 'tests' })
    const s = await session(
      'refund-agent',
      { traceDir: dir, metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 30 }, sessionId: 'conv-1', userId: 'alice' },
      (s) => {
        s.logLlmCall({ model: 'gpt-4o', tokenUsage: { input_tokens: 1000, output_tokens: 100 }, responseText: 'Refunded.' })
      },
    )
    const reply = await eventually(listed(ledger), (r) => r.body.total === 1)
    expect(reply.body.runs[0]).toMatchObject({
      run_id: s.traceId,
      agent: 'refund-agent',
      user_id: 'alice',
      session_id: 'conv-1',
      goal: 'Refund order 42',
      status: 'completed',
      budget_usd: 0.01,
      budget_seconds: 30,
      metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 30 },
    })
    expect((await ledger.call('run.get', { org: 'acme', namespace: 'tests', run_id: s.traceId })).body).toMatchObject({
      turns: 1,
      unpriced_turns: 0,
      cost_usd: expect.closeTo(0.0035, 12),
    })
    await session('refund-agent', { traceDir: dir }, () => {})
    const replaced = await eventually(listed(ledger), (r) => r.body.runs[0]?.run_id !== s.traceId)
    expect(replaced.body).toMatchObject({ total: 1, runs: [{ goal: 'refund-agent', metadata: {} }] })
  })

  it('lists a run while session() records it (its journal) as active, in place of the earlier run of its name, then as completed', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir })
    const earlier = await session('refund-agent', { traceDir: dir }, () => {})
    await eventually(listed(ledger), (r) => r.body.total === 1)
    let runId = ''
    await session('refund-agent', { traceDir: dir }, async (s) => {
      runId = s.traceId
      s.logLlmCall({ model: 'gpt-4o', responseText: 'Looking.' })
      const open = await eventually(listed(ledger), (r) => r.body.runs.some((run) => run.run_id === s.traceId))
      expect(open.body).toMatchObject({ total: 1, runs: [{ run_id: s.traceId, status: 'active', completed_at: null }] })
    })
    const done = await eventually(listed(ledger), (r) => r.body.runs[0]?.status === 'completed' && r.body.runs[0]?.run_id === runId)
    expect(done.body).toMatchObject({ total: 1, runs: [{ run_id: runId, status: 'completed' }] })
    expect(done.body.runs.map((run) => run.run_id)).not.toContain(earlier.traceId)
  })

  it("reports our recorder's statuses as the specification's four: interrupted is failed, with metadata.interruption_reason", async () => {
    const dir = tempDir()
    const base = { started_at: T0, ended_at: T0 + 2 }
    saveTrace(
      buildTrace('crashed', [], {
        ...base,
        trace_id: 'r-interrupted',
        status: 'interrupted' as never,
        interruption_reason: 'process exited before the session closed',
      }),
      { traceDir: dir },
    )
    saveTrace(buildTrace('stopped', [], { ...base, trace_id: 'r-cancelled', status: 'cancelled', interruption_reason: 'SIGINT' }), { traceDir: dir })
    saveTrace(buildTrace('recording', [], { ...base, trace_id: 'r-active', status: 'active' as never, ended_at: null }), { traceDir: dir })
    const python = buildTrace('python', [], { ...base, trace_id: 'r-python' })
    delete python.status
    saveTrace(python, { traceDir: dir })
    const ledger = await startDirectoryLedger({ dir })
    const runs = (
      await ledger.call<{ runs: Array<Record<string, unknown>> }>('run.list', {
        fields: ['run_id', 'status', 'completed_at', 'duration_ms', 'metadata'],
        order_by: 'started_asc',
      })
    ).body.runs
    expect(Object.fromEntries(runs.map(({ run_id, ...rest }) => [run_id, rest]))).toEqual({
      'r-interrupted': {
        status: 'failed',
        completed_at: '2027-01-15T08:00:02.000Z',
        duration_ms: 2000,
        metadata: { interruption_reason: 'process exited before the session closed' },
      },
      'r-cancelled': { status: 'cancelled', completed_at: '2027-01-15T08:00:02.000Z', duration_ms: 2000, metadata: { interruption_reason: 'SIGINT' } },
      'r-active': { status: 'active', completed_at: null, duration_ms: 0, metadata: {} },
      'r-python': { status: 'completed', completed_at: '2027-01-15T08:00:02.000Z', duration_ms: 2000, metadata: {} },
    })
  })

  it('writes a grade into the trace file session() wrote, as reagent-flow grade does', async () => {
    const dir = tempDir()
    saveTrace(buildTrace('refund-agent', [{ text: 'done' }]), { traceDir: dir })
    const ledger = await startDirectoryLedger({ dir })
    expect((await ledger.call('run.grade', { run_id: 'trace-refund-agent', grade: 'fail', source: 'reviewer', reason: 'refunded twice' })).body).toMatchObject({
      graded: 1,
    })
    expect(loadTrace(join(dir, 'refund-agent.trace.json')).grade).toEqual({
      grade: 'fail',
      source: 'reviewer',
      reason: 'refunded twice',
      ref: '',
      graded_at: T0,
    })
    expect((await ledger.call('run.complete', { run_id: 'trace-refund-agent', status: 'failed' })).status).toBe(409)
  })

  it('keeps each run begun over HTTP in a trace file of its own, which trace readers load, and keeps it active across restarts', async () => {
    const dir = tempDir()
    const first = await startDirectoryLedger({ dir, org: 'acme' })
    const runId = (await first.call<{ run_id: string }>('run.begin', { agent: 'refund-agent', goal: 'Refund order 42', run_id: 'run/1' })).body.run_id
    await first.call('run.begin', { agent: 'refund-agent', goal: 'Refund order 43' })
    const folder = join(dir, 'ledger', 'acme', 'default')
    expect(readdirSync(folder).sort()).toEqual([expect.stringMatching(/^[0-9A-Z]{26}\.trace\.json$/), 'run%2F1.trace.json'])
    const file = loadTrace(join(folder, 'run%2F1.trace.json'))
    expect(file).toMatchObject({
      trace_id: 'run/1',
      name: 'refund-agent',
      status: 'active',
      ended_at: null,
      turns: [],
      ledger: { run_id: 'run/1', goal: 'Refund order 42' },
    })
    await first.server.close()
    const second = await startDirectoryLedger({ dir, org: 'acme' })
    expect((await second.call('run.get', { run_id: runId })).body).toMatchObject({ run: { status: 'active', goal: 'Refund order 42' } })
    expect((await second.call('run.list', {})).body).toMatchObject({ total: 2 })
    await second.call('run.complete', { run_id: runId, status: 'completed' })
    expect(loadTrace(join(folder, 'run%2F1.trace.json'))).toMatchObject({ status: 'completed', ended_at: T0, ledger: { status: 'completed' } })
  })

  it('stores traces from trace.put redacted, as the storage layer writes every trace', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir, org: 'acme' })
    const runId = (await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g' })).body.run_id
    const trace = buildTrace('a', [{ calls: [{ name: 'call_api', args: { api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' }, result: 'Bearer abcdefghijklmnop' }] }])
    await ledger.call('trace.put', { run_id: runId, trace })
    const text = readFileSync(join(dir, 'ledger', 'acme', 'default', `${runId}.trace.json`), 'utf8')
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx')
    expect(text).not.toContain('abcdefghijklmnop"')
    expect(loadTrace(join(dir, 'ledger', 'acme', 'default', `${runId}.trace.json`)).turns[0]!.tool_results[0]!.result).toBe('Bearer [REDACTED]')
  })

  it("keeps a run whose run.begin arrives after the watch indexed the session's journal: its own file, completed by run.complete, listed after the next run of its name", async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir, org: 'acme' })
    let runId = ''
    await session('refund-agent', { traceDir: dir, ledger: false }, async (s) => {
      runId = s.traceId
      s.logLlmCall({ model: 'gpt-4o', responseText: 'Looking.' })
      // The race: the watch sees the journal first, then the session's run.begin arrives.
      await eventually(listed(ledger), (r) => r.body.runs.some((run) => run.run_id === s.traceId))
      // As a session without a goal reports it: nothing the journal's run does not say already.
      const begun = await ledger.call('run.begin', { agent: 'refund-agent', goal: 'refund-agent', run_id: s.traceId })
      expect(begun.status).toBe(200)
    })
    expect(existsSync(join(dir, 'ledger', 'acme', 'default', `${runId}.trace.json`))).toBe(true)
    const completed = await ledger.call('run.complete', { run_id: runId, status: 'completed', final_response: 'Refunded.' })
    expect(completed.status).toBe(200)
    await session('refund-agent', { traceDir: dir, ledger: false }, () => {})
    const both = await eventually(listed(ledger), (r) => r.body.total === 2)
    expect(both.body.runs[0]).toMatchObject({ run_id: runId, status: 'completed', goal: 'refund-agent', final_response: 'Refunded.' })
  })

  it('refuses a second server on the same directory, and takes over the lock of one that died', async () => {
    const dir = tempDir()
    const store = DirectoryStore.open({ dir, org: 'o', namespace: 'n', watch: false })
    expect(() => DirectoryStore.open({ dir, org: 'o', namespace: 'n', watch: false })).toThrow(
      `another reagent-flow server (pid ${process.pid}) is serving ${dir}: stop it, or run several servers on one PostgreSQL store (--store postgres://...) instead`,
    )
    await store.close()
    expect(existsSync(join(dir, '.ledger.lock'))).toBe(false)
    // A lock left by a process that is gone (pid 2^22 + 1 is above Linux's pid_max default).
    writeFileSync(join(dir, '.ledger.lock'), '4194305\n')
    const again = DirectoryStore.open({ dir, org: 'o', namespace: 'n', watch: false })
    await again.close()
  })
})

describe('ledger files named by an earlier version', () => {
  it("moves a long id's file from its old name h-<sha256> (which a direct id can have) to +h-<sha256> at start, so the run whose id is that name gets a file of its own", async () => {
    const dir = tempDir()
    const long = 'y'.repeat(200)
    const hashed = createHash('sha256').update(long).digest('hex')
    const first = await startDirectoryLedger({ dir, org: 'acme' })
    expect((await first.call('run.begin', { agent: 'a', goal: 'the long one', run_id: long })).status).toBe(200)
    await first.server.close()
    const folder = join(dir, 'ledger', 'acme', 'default')
    renameSync(join(folder, `+h-${hashed}.trace.json`), join(folder, `h-${hashed}.trace.json`))
    const second = await startDirectoryLedger({ dir, org: 'acme' })
    expect(readdirSync(folder)).toEqual([`+h-${hashed}.trace.json`])
    expect((await second.call('run.begin', { agent: 'a', goal: 'the twin', run_id: `h-${hashed}` })).status).toBe(200)
    expect(readdirSync(folder).sort()).toEqual([`+h-${hashed}.trace.json`, `h-${hashed}.trace.json`])
    await second.server.close()
    const third = await startDirectoryLedger({ dir, org: 'acme' })
    expect((await third.call('run.get', { run_id: long })).body).toMatchObject({ found: true, run: { goal: 'the long one' } })
    expect((await third.call('run.get', { run_id: `h-${hashed}` })).body).toMatchObject({ found: true, run: { goal: 'the twin' } })
  })
})
