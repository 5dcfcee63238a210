/**
 * A database an older reagent-flow migrated (the released migrations, as
 * they were) keeps working: the store opens it applying only the migrations
 * added since (3: the results table of results.put), its
 * columns are the ones the definition of a run (src/ledger/run-fields.ts)
 * reads and writes, and a run goes in and comes back unchanged.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { RUN_COLUMNS } from '../../src/ledger/postgres/run-columns.js'
import { openedRun } from '../../src/ledger/run-rules.js'
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
  it('opens applying only the newer migrations (3: results), has the columns the definition names, in its order, and keeps a run as it was begun', async () => {
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
})
