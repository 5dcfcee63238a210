/**
 * The backup docs/ledger.md documents for PostgreSQL, run as written: a
 * ledger database dumped with `pg_dump --format=custom` and restored with
 * `pg_restore` into an empty database serves the same runs, traces and
 * results, keeps adding months, and starts without a migration to apply.
 * Skipped where the PostgreSQL client programs are not installed.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { tempDir } from '../helpers/temp-dir.js'
import { resultsOf } from './conformance/results.js'
import { createDatabase, POSTGRES_URL } from './harness.js'

/** Where Debian and Ubuntu put the client programs of PostgreSQL 15 (the CI's), else the PATH's. */
const BIN = ['/usr/lib/postgresql/15/bin', '/usr/bin'].find((dir) => existsSync(join(dir, 'pg_restore')))

const scope = { org: 'acme', namespace: 'ci' }
const MARCH_2030 = Date.UTC(2030, 2, 3) / 1000

describe.skipIf(POSTGRES_URL === undefined || BIN === undefined)('a ledger database backed up with pg_dump and restored with pg_restore', () => {
  it('serves the same runs, traces and results, by id and listed, and starts without migrating again', async () => {
    const source = await createDatabase()
    const target = await createDatabase()
    try {
      const store = await PostgresStore.open({ url: source.url })
      const runIds = ['r1', 'r2', 'r3']
      try {
        for (const [i, runId] of runIds.entries()) {
          await store.begin(
            checkedInput('run.begin', { ...scope, agent: 'refund-agent', goal: `Refund ${i}`, run_id: runId }),
            runId,
            MARCH_2030 + i * 40 * 86_400,
          )
        }
        await store.complete(scope, checkedInput('run.complete', { ...scope, run_id: 'r1', status: 'completed' }), MARCH_2030 + 5)
        await store.putTrace(scope, 'r2', { trace_format: '1', trace_id: 'r2', turns: [] } as never)
        await store.putResults(scope, 'res-1', resultsOf('main', 1), MARCH_2030)
      } finally {
        await store.close()
      }
      const before = await PostgresStore.open({ url: source.url })
      const runs = await Promise.all(runIds.map((runId) => before.get(scope, runId)))
      const listed = await before.list({ ...scope, orderBy: 'started_asc', limit: 10, offset: 0 }, scope)
      await before.close()

      const dump = join(tempDir('reagent-dump-'), 'ledger.dump')
      execFileSync(join(BIN!, 'pg_dump'), ['--format=custom', `--file=${dump}`, source.url])
      execFileSync(join(BIN!, 'pg_restore'), [`--dbname=${target.url}`, '--no-owner', dump])

      const restored = await PostgresStore.open({ url: target.url })
      try {
        expect(await Promise.all(runIds.map((runId) => restored.get(scope, runId)))).toEqual(runs)
        expect(await restored.list({ ...scope, orderBy: 'started_asc', limit: 10, offset: 0 }, scope)).toEqual(listed)
        expect(await restored.getTrace(scope, 'r2')).toEqual({ trace_format: '1', trace_id: 'r2', turns: [] })
        expect(await restored.listResults(scope, 'main', 5)).toEqual([resultsOf('main', 1)])
        // The month function came back too: a run of a month with no partition gets one.
        await restored.begin(checkedInput('run.begin', { ...scope, agent: 'refund-agent', goal: 'g', run_id: 'r9' }), 'r9', Date.UTC(2031, 0, 9) / 1000)
      } finally {
        await restored.close()
      }
      const client = new pg.Client({ connectionString: target.url })
      await client.connect()
      try {
        const applied = await client.query<{ version: number; n: string }>('SELECT max(version) AS version, count(*) AS n FROM reagent_ledger_migrations')
        expect(applied.rows).toEqual([{ version: 7, n: '7' }])
        const month = await client.query("SELECT tableoid::regclass::text AS part FROM reagent_ledger_runs WHERE run_id = 'r9'")
        expect(month.rows).toEqual([{ part: 'reagent_ledger_runs_p203101' }])
      } finally {
        await client.end()
      }
    } finally {
      await source.drop()
      await target.drop()
    }
  })
})
