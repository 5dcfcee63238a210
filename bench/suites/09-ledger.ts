/**
 * The run ledger (`reagent-flow serve`) under load, for both stores, each
 * server in a process of its own and the clients in this one, on loopback:
 *
 * - run.begin + run.complete pairs per second with 32 concurrent clients;
 * - run.list p50 / p99 over 100,000 runs, a mix of filters, orders and deep
 *   pages (target: p99 under 100 ms);
 *
 * against the same framework serving one route that answers `{}`, measured
 * in the same run. PostgreSQL is REAGENT_BENCH_POSTGRES_URL (or the test
 * cluster's REAGENT_TEST_POSTGRES_URL, or .ci/postgres's default); when none
 * answers, its rows are skipped, and the bench says so.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { placeholders, RUN_COLUMNS, valuesOf } from '../../src/ledger/postgres/run-columns.js'
import { latencies, post, startBareProcess, startLedgerProcess, throughput, type ServerProcess } from '../lib/ledger-load.js'
import type { Row } from '../lib/report.js'
import { benchRun, writeLedgerDir, LIST_RUNS } from '../lib/ledger-runs.js'
import type { BenchSuite } from '../run.js'

const POSTGRES_URL = process.env.REAGENT_BENCH_POSTGRES_URL || process.env.REAGENT_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:54329/postgres'
const LIST_CALLS = 300

/** The run.list calls of the latency figure, in turn: what a Runs page and a CI script ask. */
const LIST_QUERIES: ReadonlyArray<Record<string, unknown>> = [
  {},
  { status: 'failed' },
  { q: 'order 4242' },
  { grade: 'pass', order_by: 'duration_desc' },
  { offset: 50_000, limit: 50 },
  { agent: 'agent-7', session_id: 'session-7' },
  { order_by: 'started_asc', limit: 200, fields: ['run_id', 'status', 'goal'] },
  { memory_activity: 'without', grade: 'ungraded', offset: 1000 },
]

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** A fresh database beside `url`'s; its URL and how to drop it. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `reagent_bench_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const fresh = new URL(url)
  fresh.pathname = `/${name}`
  return {
    url: fresh.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: url })
      await again.connect()
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    },
  }
}

/** LIST_RUNS runs in PostgreSQL, inserted in batches (the same runs the directory holds). */
async function fillPostgres(url: string): Promise<void> {
  await (await PostgresStore.open({ url })).close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const batch = 1000
  for (let start = 0; start < LIST_RUNS; start += batch) {
    const values: unknown[] = []
    const rows: string[] = []
    for (let i = start; i < Math.min(LIST_RUNS, start + batch); i++) {
      rows.push(`(${placeholders(values.length + 1)})`)
      values.push(...valuesOf(benchRun(i)))
    }
    await client.query(`INSERT INTO reagent_ledger_runs (${RUN_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, values)
  }
  // What autovacuum does on a live ledger after a burst of writes (its visibility map makes counts index-only).
  await client.query('VACUUM ANALYZE reagent_ledger_runs')
  await client.end()
}

const pair = (url: string) => async (client: number) => {
  const { run_id: runId } = (await post(url, 'run.begin', { agent: `bench-${client}`, goal: 'Refund order 42' })) as { run_id: string }
  await post(url, 'run.complete', { run_id: runId, status: 'completed' })
}

const bareCalls = (url: string) => async () => {
  await post(url, 'bare', {})
  await post(url, 'bare', {})
}

async function figures(store: string, label: string, bare: ServerProcess, suite: string): Promise<Row[]> {
  const rows: Row[] = []
  const loaded = await startLedgerProcess(store)
  try {
    const listing = await latencies((i) => post(loaded.url, 'run.list', LIST_QUERIES[i % LIST_QUERIES.length]!).then(() => {}), LIST_CALLS)
    const bareLatency = await latencies(() => post(bare.url, 'bare', {}).then(() => {}), LIST_CALLS)
    const baselineName = 'a bare route answering {}'
    rows.push(
      {
        suite,
        name: `${label}: run.list p50 over ${LIST_RUNS.toLocaleString('en')} runs`,
        value: listing.p50,
        unit: 'ms',
        baseline: bareLatency.p50,
        baselineName,
      },
      {
        suite,
        name: `${label}: run.list p99 over ${LIST_RUNS.toLocaleString('en')} runs`,
        value: listing.p99,
        unit: 'ms',
        baseline: bareLatency.p99,
        baselineName,
        target: { max: 100, of: 'value' },
      },
    )
  } finally {
    await loaded.stop()
  }
  return rows
}

export const suite: BenchSuite = {
  name: 'ledger',
  async run() {
    const suite = 'run ledger (reagent-flow serve) on loopback; servers in their own processes'
    const rows: Row[] = []
    const bare = await startBareProcess()
    const work = mkdtempSync(join(tmpdir(), 'reagent-bench-ledger-'))
    try {
      const bareRate = await throughput(bareCalls(bare.url))
      const pairs = async (label: string, store: string): Promise<void> => {
        const server = await startLedgerProcess(store)
        try {
          const rate = await throughput(pair(server.url))
          rows.push({
            suite,
            name: `${label}: run.begin + run.complete pairs (32 clients)`,
            value: rate,
            unit: '/s',
            baseline: bareRate,
            baselineName: 'pairs of {} requests',
          })
        } finally {
          await server.stop()
        }
      }
      await pairs('directory store', join(work, 'pairs'))
      const dir = join(work, 'listed')
      writeLedgerDir(dir)
      // The 100,000 files just written go to disk now, not during the measurement.
      execFileSync('sync')
      rows.push(...(await figures(dir, 'directory store', bare, suite)))
      if (await postgresAnswers(POSTGRES_URL)) {
        const forPairs = await freshDatabase(POSTGRES_URL)
        const forList = await freshDatabase(POSTGRES_URL)
        try {
          await pairs('PostgreSQL store', forPairs.url)
          await fillPostgres(forList.url)
          rows.push(...(await figures(forList.url, 'PostgreSQL store', bare, suite)))
        } finally {
          await forPairs.drop()
          await forList.drop()
        }
      } else {
        console.log(
          `\nbench ledger: PostgreSQL is not running at ${POSTGRES_URL} (start one with .ci/postgres, or set REAGENT_BENCH_POSTGRES_URL); its rows are skipped`,
        )
      }
    } finally {
      await bare.stop()
      rmSync(work, { recursive: true, force: true })
    }
    return rows
  },
}
