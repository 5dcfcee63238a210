/**
 * Loads the runs of scale-runs.ts into a PostgreSQL database of the bench's
 * own with COPY FROM STDIN (pg-copy-streams), once: a marker table says how
 * many runs were loaded and when, and a database already holding them is
 * reused, so the measurements can be run again without a reload.
 *
 * The schema is the store's: PostgresStore.open applies its migrations, the
 * rows are the columns of run-columns.ts (RUN_COLUMNS, valuesOf), COPY goes
 * to the parent `reagent_ledger_runs` (a partitioned one routes the rows), and
 * where `reagent_ledger_run_keys` exists (the partitioned schema's unique ids)
 * it gets a key per run. The secondary indexes are dropped for the load and
 * made again from their own definitions after it (one sorted build each is
 * many times faster than ten million inserts into each); primary keys stay.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { RUN_COLUMNS, valuesOf } from '../../src/ledger/postgres/run-columns.js'
import { scaleRuns } from './scale-runs.js'

const MARKER = 'reagent_bench_scale_load'
/** Runs per COPY statement (each its own transaction): a failure loses one chunk's work, not the load's. */
const CHUNK = 500_000

export interface LoadedSet {
  runs: number
  /** Epoch seconds: the last run started before it; the year of runs ends there. */
  end: number
  /** Seconds the load took (0 when an earlier load was reused). */
  loadSeconds: number
}

/** The URL of database `name` on the server of `url`, created when missing. */
export async function databaseBeside(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const beside = new URL(url)
  beside.pathname = `/${name}`
  return beside.toString()
}

/** A value in COPY's text format: \N for null, and backslash, tab, newline and carriage return escaped. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  const text = typeof value === 'string' ? value : String(value)
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!) : text
}

/** The runs' COPY lines in blocks of ~1 MB. */
function* copyBlocks(runs: Iterator<ReturnType<typeof scaleRuns> extends Generator<infer R> ? R : never>, count: number): Generator<string> {
  let block = ''
  for (let i = 0; i < count; i++) {
    const next = runs.next()
    if (next.done === true) break
    block += `${valuesOf(next.value).map(copyText).join('\t')}\n`
    if (block.length > 1_000_000) {
      yield block
      block = ''
    }
  }
  if (block !== '') yield block
}

async function tableExists(client: pg.Client, name: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name])
  return rows[0]!.found
}

/** The secondary indexes of `tables` (not those of a constraint, not those of partitions), as CREATE INDEX statements. */
async function secondaryIndexes(client: pg.Client, tables: readonly string[]): Promise<Array<{ name: string; definition: string }>> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relname = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY i.relname`,
    [tables],
  )
  // A partitioned table's index is shown ON ONLY the parent; made again, it must reach the partitions too.
  return rows.map((row) => ({ name: row.name, definition: row.definition.replace(' ON ONLY ', ' ON ') }))
}

/** The set loaded in `url`, or `runs` runs loaded now (after emptying what an interrupted load left). */
export async function loadScaleRuns(url: string, runs: number, log: (line: string) => void): Promise<LoadedSet> {
  await (await PostgresStore.open({ url })).close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${MARKER} (runs bigint NOT NULL, end_at double precision NOT NULL, load_seconds double precision NOT NULL)`)
    const { rows: marked } = await client.query<{ runs: string; end_at: number; load_seconds: number }>(`SELECT * FROM ${MARKER}`)
    const { rows: counted } = await client.query<{ n: string }>('SELECT count(*) AS n FROM reagent_ledger_runs')
    const mark = marked[0]
    if (mark !== undefined && Number(mark.runs) === runs && Number(counted[0]!.n) >= runs) {
      log(`ledger-scale: reusing the ${runs.toLocaleString('en')} runs loaded earlier (${MARKER})`)
      return { runs, end: mark.end_at, loadSeconds: 0 }
    }
    const started = performance.now()
    const end = Math.floor(Date.now() / 1000)
    const withKeys = await tableExists(client, 'reagent_ledger_run_keys')
    const tables = withKeys ? ['reagent_ledger_runs', 'reagent_ledger_run_keys', 'reagent_ledger_traces'] : ['reagent_ledger_runs', 'reagent_ledger_traces']
    await client.query(`TRUNCATE ${MARKER}, ${tables.join(', ')}`)
    const indexes = await secondaryIndexes(
      client,
      tables.filter((t) => t !== 'reagent_ledger_traces'),
    )
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`)
    // The partitioned schema: each month of the year gets its partition before the load, as the store adds them (partitions.ts); without, every run would land in the default partition.
    const { rows: monthly } = await client.query<{ found: boolean }>("SELECT to_regproc('reagent_ledger_add_month') IS NOT NULL AS found")
    if (monthly[0]!.found)
      for (let at = end - 400 * 86_400; at <= end + 31 * 86_400; at += 28 * 86_400) await client.query('SELECT reagent_ledger_add_month($1)', [at])
    // The bench's own database and connection: nothing here needs a commit to wait for its WAL flush.
    await client.query('SET synchronous_commit = off')
    const generated = scaleRuns(runs, end)
    for (let done = 0; done < runs; done += CHUNK) {
      const count = Math.min(CHUNK, runs - done)
      await pipeline(Readable.from(copyBlocks(generated, count)), client.query(copyFrom(`COPY reagent_ledger_runs (${RUN_COLUMNS.join(', ')}) FROM STDIN`)))
      log(
        `ledger-scale: ${(done + count).toLocaleString('en')} of ${runs.toLocaleString('en')} runs copied (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      )
    }
    if (withKeys) {
      await client.query(
        `INSERT INTO reagent_ledger_run_keys (org, namespace, run_id, started_at) SELECT org, namespace, run_id, started_at FROM reagent_ledger_runs ON CONFLICT DO NOTHING`,
      )
    }
    await client.query(`SET maintenance_work_mem = '1GB'`)
    for (const index of indexes) {
      const at = performance.now()
      await client.query(index.definition)
      log(`ledger-scale: index ${index.name} made again (${((performance.now() - at) / 1000).toFixed(0)} s)`)
    }
    // What autovacuum would have done by now on a live ledger: the visibility map (index-only scans) and the statistics.
    await client.query(`VACUUM ANALYZE ${tables.join(', ')}`)
    const loadSeconds = (performance.now() - started) / 1000
    await client.query(`INSERT INTO ${MARKER} (runs, end_at, load_seconds) VALUES ($1, $2, $3)`, [runs, end, loadSeconds])
    log(`ledger-scale: ${runs.toLocaleString('en')} runs loaded in ${loadSeconds.toFixed(0)} s`)
    return { runs, end, loadSeconds }
  } finally {
    await client.end()
  }
}
