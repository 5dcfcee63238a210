/**
 * A database an older reagent-flow migrated (the released migrations, as
 * they were) keeps working: the store opens it applying only the migrations
 * added since (3: the results table of results.put; 4 and 5: runs and traces
 * partitioned by month; 6: run.stats's kept buckets; 7: idempotency keys), its columns are the ones the definition of a run
 * (src/ledger/run-fields.ts) reads and writes, a run goes in and comes back
 * unchanged, and every run it held before, with its trace, is there after.
 */
import { gzipSync } from 'node:zlib'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { placeholders, RUN_COLUMNS, valuesOf } from '../../src/ledger/postgres/run-columns.js'
import type { RunRecord } from '../../src/ledger/run-row.js'
import { completedRun, gradedRun, openedRun } from '../../src/ledger/run-rules.js'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { resultsOf } from './conformance/results.js'
import { createDatabase, POSTGRES_URL } from './harness.js'
import { RELEASED_MIGRATION_1, RELEASED_MIGRATION_2 } from './released-migrations.js'

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

describe.skipIf(POSTGRES_URL === undefined)('a database migrated by the released migrations', () => {
  it('opens applying only the newer migrations (3: results, 4 and 5: partitions, 6: stats, 7: idempotency keys), has the columns the definition names, in its order, and keeps a run as it was begun', async () => {
    const database = await createDatabase()
    try {
      await withClient(database.url, async (client) => {
        await client.query('CREATE TABLE reagent_ledger_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
        await client.query(RELEASED_MIGRATION_1)
        await client.query(RELEASED_MIGRATION_2)
        await client.query('INSERT INTO reagent_ledger_migrations (version) VALUES (1), (2)')
      })
      const store = await PostgresStore.open({ url: database.url })
      try {
        const input = checkedInput('run.begin', { org: 'acme', namespace: 'ci', agent: 'refund-agent', goal: 'Refund order 42', metadata: { pr: 7 } })
        const outcome = await store.begin(input, 'run-1', 1_800_000_000.25)
        expect(outcome).toEqual({ kind: 'opened', run: openedRun(input, 'run-1', 1_800_000_000.25) })
        expect(await store.get({ org: 'acme', namespace: 'ci' }, 'run-1')).toEqual(openedRun(input, 'run-1', 1_800_000_000.25))
        expect(await store.putResults({ org: 'acme', namespace: 'ci' }, 'r1', resultsOf('main', 1), 1_800_000_001)).toBe(true)
        expect(await store.listResults({ org: 'acme', namespace: 'ci' }, 'main', 20)).toEqual([resultsOf('main', 1)])
      } finally {
        await store.close()
      }
      await withClient(database.url, async (client) => {
        expect((await client.query('SELECT version FROM reagent_ledger_migrations ORDER BY version')).rows).toEqual([
          { version: 1 },
          { version: 2 },
          { version: 3 },
          { version: 4 },
          { version: 5 },
          { version: 6 },
          { version: 7 },
        ])
        const columns = await client.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_name = 'reagent_ledger_runs' ORDER BY ordinal_position",
        )
        expect(columns.rows.map((row) => row.column_name)).toEqual(RUN_COLUMNS)
      })
    } finally {
      await database.drop()
    }
  })

  it('keeps every run, grade and trace a released schema held, each in the partition of its month, found by id and listed, with the indexes of every order and the search index', async () => {
    const database = await createDatabase()
    const scope = { org: 'acme', namespace: 'ci' }
    // Runs of three months (two in November 2026, one at its last microsecond), one active, one graded, two with traces.
    const times = [1_796_083_199.999999, 1_795_000_000.5, 1_798_761_600, 1_801_440_000.25, 1_801_440_000.25]
    const runs: RunRecord[] = times.map((at, i) => {
      const input = checkedInput('run.begin', { ...scope, agent: `agent-${i % 2}`, goal: `Refund order ${i}`, metadata: { i } })
      const opened = openedRun(input, `run-${i}`, at)
      if (i === 3) return opened
      const done = completedRun(
        opened,
        checkedInput('run.complete', { ...scope, run_id: `run-${i}`, status: i === 1 ? 'failed' : 'completed', memories_used: ['m'.repeat(i)] }),
        at + 2,
      )
      return i === 0 ? gradedRun(done, { grade: 'pass', source: 'ci', reason: 'ok', ref: '' }, at + 3) : done
    })
    const traces = new Map([
      ['run-0', { trace_format: '1', trace_id: 'run-0', turns: [], note: 'first' }],
      ['run-4', { trace_format: '1', trace_id: 'run-4', turns: [], note: 'é'.repeat(1000) }],
    ])
    try {
      await withClient(database.url, async (client) => {
        await client.query('CREATE TABLE reagent_ledger_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
        await client.query(RELEASED_MIGRATION_1)
        await client.query(RELEASED_MIGRATION_2)
        await client.query('INSERT INTO reagent_ledger_migrations (version) VALUES (1), (2)')
        for (const run of runs) await client.query(`INSERT INTO reagent_ledger_runs (${RUN_COLUMNS.join(', ')}) VALUES (${placeholders()})`, valuesOf(run))
        for (const [runId, trace] of traces) {
          await client.query('INSERT INTO reagent_ledger_traces VALUES ($1, $2, $3, $4, $5, $6)', ['acme', 'ci', runId, gzipSync(JSON.stringify(trace)), 10, 1])
        }
      })
      const store = await PostgresStore.open({ url: database.url })
      try {
        for (const run of runs) expect(await store.get(scope, run.run_id)).toEqual(run)
        for (const [runId, trace] of traces) expect(await store.getTrace(scope, runId)).toEqual(trace)
        expect(await store.getTrace(scope, 'run-1')).toBeNull()
        const list = await store.list({ ...scope, orderBy: 'started_asc', limit: 10, offset: 0 }, scope)
        expect(list).toEqual({ runs: [runs[1], runs[0], runs[2], runs[3], runs[4]], total: 5, more: false })
        const byDuration = await store.list({ ...scope, orderBy: 'relied_on_desc', limit: 2, offset: 0, q: 'order 4' }, scope)
        expect(byDuration).toEqual({ runs: [runs[4]], total: 1, more: false })
        // An id the released schema held stays taken: a begin of it is the run's re-sent begin.
        const again = checkedInput('run.begin', { ...scope, agent: 'agent-0', goal: 'Refund order 2', run_id: 'run-2' })
        expect(await store.begin(again, 'run-2', 1_900_000_000)).toEqual({ kind: 'existing', run: runs[2] })
      } finally {
        await store.close()
      }
      await withClient(database.url, async (client) => {
        const where = async (table: string) =>
          (await client.query<{ part: string; run_id: string }>(`SELECT tableoid::regclass::text AS part, run_id FROM ${table} ORDER BY run_id`)).rows
        expect(await where('reagent_ledger_runs')).toEqual([
          { part: 'reagent_ledger_runs_p202611', run_id: 'run-0' },
          { part: 'reagent_ledger_runs_p202611', run_id: 'run-1' },
          { part: 'reagent_ledger_runs_p202701', run_id: 'run-2' },
          { part: 'reagent_ledger_runs_p202702', run_id: 'run-3' },
          { part: 'reagent_ledger_runs_p202702', run_id: 'run-4' },
        ])
        expect(await where('reagent_ledger_traces')).toEqual([
          { part: 'reagent_ledger_traces_p202611', run_id: 'run-0' },
          { part: 'reagent_ledger_traces_p202702', run_id: 'run-4' },
        ])
        expect((await client.query('SELECT org, namespace, run_id, started_at FROM reagent_ledger_run_keys ORDER BY run_id')).rows).toEqual(
          runs.map((run) => ({ org: 'acme', namespace: 'ci', run_id: run.run_id, started_at: run.started_at })),
        )
        const tables = await client.query<{ name: string }>("SELECT relname AS name FROM pg_class WHERE relname LIKE 'reagent_ledger_%unpartitioned'")
        expect(tables.rows).toEqual([])
        const indexes = await client.query<{ name: string }>(
          "SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'reagent_ledger_runs'::regclass ORDER BY 1",
        )
        expect(indexes.rows.map((row) => row.name)).toEqual([
          'reagent_ledger_runs_agent',
          'reagent_ledger_runs_duration',
          'reagent_ledger_runs_grade',
          'reagent_ledger_runs_pkey',
          'reagent_ledger_runs_relied_on',
          'reagent_ledger_runs_search',
          'reagent_ledger_runs_session',
          'reagent_ledger_runs_started',
          'reagent_ledger_runs_status',
        ])
      })
    } finally {
      await database.drop()
    }
  })
})
