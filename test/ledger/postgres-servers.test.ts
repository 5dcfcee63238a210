import { gunzipSync } from 'node:zlib'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'
import { createDatabase, POSTGRES_URL } from './harness.js'
import { post, spawnServe, type ServeProcess } from './serve-process.js'

/** Runs `work` for 0..n-1 with at most `width` at a time. */
async function pool<T>(n: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++
        out[i] = await work(i)
      }
    }),
  )
  return out
}

describe.skipIf(POSTGRES_URL === undefined)('several servers on one PostgreSQL', () => {
  it('lose nothing under concurrent begin, complete and grade from 32 clients, and complete each run exactly once', async () => {
    const database = await createDatabase()
    try {
      const cwd = tempDir()
      const servers: ServeProcess[] = await Promise.all([spawnServe(['--store', database.url], cwd), spawnServe(['--store', database.url], cwd)])
      const urls = servers.map((server) => server.url)
      const RUNS = 200
      // Every run is begun twice at once (the same run_id, one call to each server): one run, one started_at.
      const begun = await pool(RUNS, 32, async (i) => {
        const body = { agent: `agent-${i % 4}`, goal: `goal ${i}`, run_id: `run-${i}`, session_id: `session-${i % 10}` }
        const replies = await Promise.all(urls.map((url) => post<{ started_at: string }>(url, 'run.begin', body)))
        expect(replies.map((reply) => reply.status)).toEqual([200, 200])
        expect(replies[0]!.body.started_at).toBe(replies[1]!.body.started_at)
        return replies[0]!.body.started_at
      })
      expect(begun).toHaveLength(RUNS)
      // Every run is completed by both servers at once: exactly one succeeds, the other is told it is closed.
      const completions = await pool(RUNS, 32, async (i) => {
        const statuses = await Promise.all(urls.map((url, s) => post(url, 'run.complete', { run_id: `run-${i}`, status: s === 0 ? 'completed' : 'failed' })))
        return statuses.map((reply) => reply.status).sort()
      })
      expect(completions.every((statuses) => statuses.join() === '200,409')).toBe(true)
      // Each session graded from both servers at once: each closed run is graded once, the other call finds it unchanged.
      const grades = await Promise.all(
        Array.from({ length: 10 }, (_, s) =>
          Promise.all(urls.map((url) => post<{ graded: number; unchanged: number }>(url, 'run.grade', { session_id: `session-${s}`, grade: 'pass' }))),
        ),
      )
      for (const pair of grades) expect(pair[0]!.body.graded + pair[1]!.body.graded).toBe(20)
      for (const pair of grades) expect(pair[0]!.body.graded + pair[0]!.body.unchanged).toBe(20)
      for (const url of urls) {
        expect((await post(url, 'run.list', { limit: 0 })).body).toEqual({ runs: [], total: RUNS, next_cursor: null })
        expect((await post(url, 'run.list', { limit: 0, status: 'active' })).body).toEqual({ runs: [], total: 0, next_cursor: null })
        expect((await post(url, 'run.list', { limit: 0, grade: 'pass' })).body).toEqual({ runs: [], total: RUNS, next_cursor: null })
      }
      const client = new pg.Client({ connectionString: database.url })
      client.on('error', () => {}) // dropped with the database when the test ends
      await client.connect()
      const { rows } = await client.query('SELECT count(*)::int AS runs, count(DISTINCT run_id)::int AS ids FROM reagent_ledger_runs')
      await client.end()
      expect(rows[0]).toEqual({ runs: RUNS, ids: RUNS })
      for (const server of servers) server.child.kill('SIGTERM')
      expect(await Promise.all(servers.map((server) => server.exited))).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ])
    } finally {
      await database.drop()
    }
  })

  it('keeps a run begun over HTTP active across a restart of its server, and applies its migrations once', async () => {
    const database = await createDatabase()
    try {
      const cwd = tempDir()
      const first = await spawnServe(['--store', database.url], cwd)
      const runId = (await post<{ run_id: string }>(first.url, 'run.begin', { agent: 'a', goal: 'g' })).body.run_id
      first.child.kill('SIGTERM')
      await first.exited
      const second = await spawnServe(['--store', database.url], cwd)
      expect((await post(second.url, 'run.get', { run_id: runId })).body).toMatchObject({ found: true, run: { status: 'active' } })
      const client = new pg.Client({ connectionString: database.url })
      client.on('error', () => {}) // dropped with the database when the test ends
      await client.connect()
      expect((await client.query('SELECT version FROM reagent_ledger_migrations ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
        { version: 7 },
      ])
      await client.end()
      second.child.kill('SIGTERM')
      await second.exited
    } finally {
      await database.drop()
    }
  })

  it('stores traces from trace.put redacted and compressed', async () => {
    const database = await createDatabase()
    try {
      const server = await spawnServe(['--store', database.url], tempDir())
      const runId = (await post<{ run_id: string }>(server.url, 'run.begin', { agent: 'a', goal: 'g' })).body.run_id
      const trace = {
        trace_id: 't',
        name: 'a',
        turns: [],
        metadata: { note: 'key sk-proj-abcdefghijklmnopqrstuvwx', password: 'hunter2' },
        started_at: 1,
        ended_at: 2,
        format_version: '1',
      }
      expect((await post(server.url, 'trace.put', { run_id: runId, trace })).status).toBe(200)
      const client = new pg.Client({ connectionString: database.url })
      client.on('error', () => {}) // dropped with the database when the test ends
      await client.connect()
      const { rows } = await client.query<{ trace_gzip: Buffer; bytes: number }>('SELECT trace_gzip, bytes FROM reagent_ledger_traces')
      await client.end()
      const text = gunzipSync(rows[0]!.trace_gzip).toString('utf8')
      expect(rows[0]!.bytes).toBe(Buffer.byteLength(text))
      expect(JSON.parse(text).metadata).toEqual({ note: 'key [REDACTED]', password: '[REDACTED]' })
      server.child.kill('SIGTERM')
      await server.exited
    } finally {
      await database.drop()
    }
  })
})
