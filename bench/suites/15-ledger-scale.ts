/**
 * The run ledger at ten million runs (`npm run bench -- ledger-scale`; only
 * when named). Loads a year of runs (bench/lib/scale-runs.ts) into a
 * PostgreSQL database of its own with COPY, once (a later run reuses it),
 * then measures through `reagent-flow serve` in a process of its own, from
 * 32 concurrent clients on loopback:
 *
 * - run.list for every filter and every order, one call alone (target
 *   50 ms), and from 32 clients for the newest page, a session's and the
 *   next page (by `cursor` when the server has keyset pagination, else by
 *   offset); the deepest offset page (its documented cost);
 * - run.get p99 (target < 10 ms);
 * - run.stats p99 for 7- and 30-day windows, each group and bucket (target
 *   < 200 ms), and each one's first call;
 * - the runs' table and index bytes per run, and the trace bytes per run
 *   (trace.put of a sample).
 *
 * REAGENT_BENCH_SCALE_RUNS sets the count (default 10,000,000); the
 * database is `reagent_scale_bench` (or `reagent_scale_bench_<count>` for
 * another count) beside REAGENT_BENCH_POSTGRES_URL's (or the test
 * cluster's, or .ci/postgres's default).
 */
import pg from 'pg'
import { recordOf, type RunRow } from '../../src/ledger/postgres/run-columns.js'
import { concurrentLatencies, post, startBareProcess, startLedgerProcess, type ServerProcess } from '../lib/ledger-load.js'
import type { Row } from '../lib/report.js'
import { databaseBeside, loadScaleRuns, type LoadedSet } from '../lib/scale-load.js'
import { SCALE_AGENTS, scaleAgentName, scaleTrace } from '../lib/scale-runs.js'
import type { BenchSuite } from '../run.js'

const POSTGRES_URL = process.env.REAGENT_BENCH_POSTGRES_URL || process.env.REAGENT_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:54329/postgres'
const DEFAULT_RUNS = 10_000_000
const RUNS = Number(process.env.REAGENT_BENCH_SCALE_RUNS ?? DEFAULT_RUNS)
const SCOPE = { org: 'local', namespace: 'default' }
const TRACES = 500

const SUITE = 'run ledger at scale: PostgreSQL, 32 clients on loopback through reagent-flow serve'

interface ListCase {
  name: string
  input: Record<string, unknown>
}

/** Every filter of run.list's input (each value of the enumerated ones) and every order, one at a time, and one call mixing them. */
function listCases(session: string): ListCase[] {
  const orders = ['started_desc', 'started_asc', 'duration_desc', 'duration_asc', 'relied_on_desc', 'relied_on_asc']
  return [
    ...orders.map((order) => ({ name: `order_by ${order}`, input: { order_by: order } })),
    ...['active', 'completed', 'failed', 'cancelled'].map((status) => ({ name: `status ${status}`, input: { status } })),
    ...['ungraded', 'graded', 'pass', 'fail'].map((grade) => ({ name: `grade ${grade}`, input: { grade } })),
    ...['with', 'without'].map((activity) => ({ name: `memory_activity ${activity}`, input: { memory_activity: activity } })),
    { name: 'agent (the busiest)', input: { agent: scaleAgentName(0) } },
    { name: 'agent (the quietest)', input: { agent: scaleAgentName(SCALE_AGENTS - 1) } },
    { name: 'session_id', input: { session_id: session } },
    { name: 'q (a goal)', input: { q: 'rebook flight 5150' } },
    { name: 'agent + grade fail + duration_desc', input: { agent: scaleAgentName(3), grade: 'fail', order_by: 'duration_desc' } },
    { name: 'fields (3 of them), limit 200', input: { fields: ['run_id', 'status', 'goal'], limit: 200 } },
  ]
}

/** The run.list cases also measured from 32 clients at once. */
const CROWDED = new Set(['order_by started_desc', 'session_id', 'page 51 by offset 2,500', 'page 51 by cursor'])

/** The 7- and 30-day windows, every group and every bucket, each at least once; and a Trends page's call for one agent. */
const STATS_CASES: ReadonlyArray<{ since: string; by: string; bucket: string; agent?: string }> = [
  { since: '7d', by: 'agent', bucket: 'hour' },
  { since: '7d', by: 'test', bucket: 'day' },
  { since: '7d', by: 'branch', bucket: 'week' },
  { since: '7d', by: 'commit', bucket: 'hour' },
  { since: '30d', by: 'agent', bucket: 'day' },
  { since: '30d', by: 'test', bucket: 'week' },
  { since: '30d', by: 'branch', bucket: 'day' },
  { since: '30d', by: 'commit', bucket: 'week' },
  { since: '30d', by: 'test', bucket: 'day', agent: scaleAgentName(0) },
]

const call = (server: ServerProcess, operation: string, input: Record<string, unknown>) => post(server.url, operation, { ...SCOPE, ...input })

/** What a figure's name says of its failed calls: how many, and the first one's answer (a 503 when the store's pool kept a call waiting 10 s). */
function failures(timed: { calls: number; failed: number; failure?: string }): string {
  if (timed.failed === 0) return ''
  console.log(`ledger-scale: ${timed.failed} of ${timed.calls} calls failed; the first: ${timed.failure}`)
  return ` (${timed.failed} of ${timed.calls} failed)`
}

/** The p99 of a bare route answering {} from 32 clients, measured beside the ledger's: what the machine and the framework cost. */
interface Baseline {
  baseline: number
  baselineName: string
}

async function listFigures(server: ServerProcess, session: string, label: string, bare: Baseline): Promise<Row[]> {
  const rows: Row[] = []
  const probe = (await call(server, 'run.list', { limit: 1 })) as { next_cursor?: unknown }
  const keyset = 'next_cursor' in probe
  // Every case alone (one call of one client: what it costs the server and the database), then from 32 clients for those
  // CROWDED names (the first page's total counts every match: at ten million runs 32 of them at once hold the pool).
  const figure = async (name: string, task: (i: number) => Promise<unknown>): Promise<void> => {
    const alone = await concurrentLatencies((i) => task(i).then(() => {}), { clients: 1, calls: 1 })
    rows.push({ suite: SUITE, name: `run.list 1 client, ${name}${failures(alone)}`, value: alone.p50, unit: 'ms', target: { max: 50, of: 'value' } })
    if (!CROWDED.has(name)) return
    const timed = await concurrentLatencies((i) => task(i).then(() => {}), { calls: 128, maxSeconds: 5 })
    rows.push({ suite: SUITE, name: `run.list p99, ${name}${failures(timed)}`, value: timed.p99, unit: 'ms', ...bare, target: { max: 50, of: 'value' } })
  }
  for (const listed of listCases(session)) await figure(listed.name, () => call(server, 'run.list', listed.input))
  if (keyset) {
    // Fifty pages in by cursor: every page after the first costs what the first costs.
    let cursor: unknown = null
    for (let page = 0; page < 50; page++) cursor = ((await call(server, 'run.list', page === 0 ? {} : { cursor })) as { next_cursor: unknown }).next_cursor
    await figure('page 51 by cursor', () => call(server, 'run.list', { cursor }))
  } else {
    await figure('page 51 by offset 2,500', () => call(server, 'run.list', { offset: 2500 }))
  }
  await figure('offset 100,000 (the deepest allowed)', () => call(server, 'run.list', { offset: 100_000 }))
  console.log(`${label}: run.list pages by ${keyset ? 'cursor (keyset)' : 'offset (this server has no cursor)'}`)
  return rows
}

async function statsFigures(server: ServerProcess, client: pg.Client, bare: Baseline): Promise<Row[]> {
  const rows: Row[] = []
  // Cold: what an earlier bench run kept is forgotten, so each shape's first call computes its closed buckets.
  if ((await client.query(`SELECT to_regclass('reagent_ledger_stats_cache') IS NOT NULL AS kept`)).rows[0]?.kept === true) {
    await client.query('TRUNCATE reagent_ledger_stats_cache')
  }
  for (const shape of STATS_CASES) {
    const name = `run.stats ${shape.since} by ${shape.by} per ${shape.bucket}${shape.agent === undefined ? '' : ', one agent'}`
    const first = await concurrentLatencies(() => call(server, 'run.stats', shape).then(() => {}), { clients: 1, calls: 1 })
    rows.push({ suite: SUITE, name: `${name}, first call${failures(first)}`, value: first.p50, unit: 'ms' })
    // One client: what a call costs the server and the database, without 31 others queued beside it.
    const alone = await concurrentLatencies(() => call(server, 'run.stats', shape).then(() => {}), { clients: 1, calls: 3 })
    rows.push({ suite: SUITE, name: `${name}, 1 client, p50${failures(alone)}`, value: alone.p50, unit: 'ms' })
    const timed = await concurrentLatencies(() => call(server, 'run.stats', shape).then(() => {}), { calls: 96, maxSeconds: 5 })
    rows.push({ suite: SUITE, name: `${name}, p99${failures(timed)}`, value: timed.p99, unit: 'ms', ...bare, target: { max: 200, of: 'value' } })
  }
  return rows
}

/** Bytes of the runs' tables (partitions summed) and of their indexes, per run. */
async function sizeFigures(client: pg.Client, runs: number): Promise<Row[]> {
  const { rows } = await client.query<{ tables: string; indexes: string }>(
    `WITH roots AS (SELECT c.oid, c.relkind FROM pg_class c WHERE c.oid IN (to_regclass('reagent_ledger_runs'), to_regclass('reagent_ledger_run_keys'))),
          leaves AS (SELECT oid FROM roots WHERE relkind = 'r'
                     UNION ALL SELECT t.relid FROM roots, pg_partition_tree(roots.oid) t WHERE roots.relkind = 'p' AND t.isleaf)
     SELECT coalesce(sum(pg_table_size(oid)), 0) AS tables, coalesce(sum(pg_indexes_size(oid)), 0) AS indexes FROM leaves`,
  )
  const { tables, indexes } = rows[0]!
  return [
    { suite: SUITE, name: 'runs: table bytes per run (with TOAST)', value: Number(tables) / runs, unit: 'bytes' },
    { suite: SUITE, name: 'runs: index bytes per run (every index)', value: Number(indexes) / runs, unit: 'bytes' },
  ]
}

/** trace.put of TRACES runs with usage (32 clients), then what a trace costs the database, against its JSON. */
async function traceFigures(server: ServerProcess, client: pg.Client): Promise<Row[]> {
  const { rows } = await client.query<RunRow>(
    `SELECT * FROM reagent_ledger_runs WHERE org = $1 AND namespace = $2 AND usage IS NOT NULL ORDER BY run_id COLLATE "C" LIMIT $3`,
    [SCOPE.org, SCOPE.namespace, TRACES],
  )
  const traces = rows.map((row) => scaleTrace(recordOf(row)))
  const json = traces.reduce((sum, trace) => sum + Buffer.byteLength(JSON.stringify(trace)), 0) / traces.length
  const put = await concurrentLatencies((i) => call(server, 'trace.put', { run_id: traces[i]!.trace_id, trace: traces[i]! }).then(() => {}), {
    calls: traces.length,
    maxSeconds: 30,
  })
  if (put.failed > 0) console.log(`ledger-scale: ${put.failed} of ${put.calls} trace.put calls failed; the first: ${put.failure}`)
  const { rows: stored } = await client.query<{ bytes: string; traces: string }>(
    `WITH root AS (SELECT c.oid, c.relkind FROM pg_class c WHERE c.oid = 'reagent_ledger_traces'::regclass),
          leaves AS (SELECT oid FROM root WHERE relkind = 'r' UNION ALL SELECT t.relid FROM root, pg_partition_tree(root.oid) t WHERE root.relkind = 'p' AND t.isleaf)
     SELECT coalesce(sum(pg_total_relation_size(oid)), 0) AS bytes, (SELECT count(*) FROM reagent_ledger_traces) AS traces FROM leaves`,
  )
  return [
    { suite: SUITE, name: `trace.put p99 (${traces.length} traces, ~${Math.round(json / 1024)} KiB of JSON each)`, value: put.p99, unit: 'ms' },
    {
      suite: SUITE,
      name: 'trace stored per run with one (table, TOAST, index)',
      value: Number(stored[0]!.bytes) / Number(stored[0]!.traces),
      unit: 'bytes',
      baseline: json,
      baselineName: 'its JSON',
    },
  ]
}

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

export const suite: BenchSuite = {
  name: 'ledger-scale',
  async run() {
    if (!Number.isInteger(RUNS) || RUNS < 1000)
      throw new Error(`REAGENT_BENCH_SCALE_RUNS must be a whole number of at least 1000; it is ${process.env.REAGENT_BENCH_SCALE_RUNS}`)
    if (!(await postgresAnswers(POSTGRES_URL))) {
      console.log(
        `\nbench ledger-scale: PostgreSQL is not running at ${POSTGRES_URL} (start one with .ci/postgres, or set REAGENT_BENCH_POSTGRES_URL); skipped`,
      )
      return []
    }
    const url = await databaseBeside(POSTGRES_URL, RUNS === DEFAULT_RUNS ? 'reagent_scale_bench' : `reagent_scale_bench_${RUNS}`)
    const loaded: LoadedSet = await loadScaleRuns(url, RUNS, (line) => console.log(line))
    const label = `${RUNS.toLocaleString('en')} runs`
    const ageDays = (Date.now() / 1000 - loaded.end) / 86_400
    if (ageDays > 1) console.log(`ledger-scale: the runs end ${ageDays.toFixed(1)} days ago; the windows of run.stats hold fewer runs than at load time`)
    const rows: Row[] = []
    if (loaded.loadSeconds > 0) rows.push({ suite: SUITE, name: `load: ${label} by COPY, indexes made after`, value: RUNS / loaded.loadSeconds, unit: '/s' })
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const server = await startLedgerProcess(url)
    try {
      const { rows: sessions } = await client.query<{ session_id: string }>(
        `SELECT session_id FROM reagent_ledger_runs WHERE org = $1 AND namespace = $2 AND session_id <> '-' ORDER BY started_at DESC LIMIT 1`,
        [SCOPE.org, SCOPE.namespace],
      )
      const bareServer = await startBareProcess()
      let bare: Baseline
      try {
        const timed = await concurrentLatencies(() => post(bareServer.url, 'bare', {}).then(() => {}), { calls: 1024 })
        bare = { baseline: timed.p99, baselineName: 'a bare route answering {}' }
      } finally {
        await bareServer.stop()
      }
      rows.push(...(await listFigures(server, sessions[0]!.session_id, label, bare)))
      const { rows: sampled } = await client.query<{ run_id: string }>(
        `SELECT run_id FROM reagent_ledger_runs TABLESAMPLE SYSTEM (1) REPEATABLE (28) WHERE org = $1 AND namespace = $2 LIMIT 2000`,
        [SCOPE.org, SCOPE.namespace],
      )
      const ids = sampled.map((row) => row.run_id)
      const got = await concurrentLatencies((i) => call(server, 'run.get', { run_id: ids[i % ids.length]! }).then(() => {}), { calls: 1024, maxSeconds: 10 })
      rows.push({
        suite: SUITE,
        name: `run.get p99 (${ids.length} runs sampled)${failures(got)}`,
        value: got.p99,
        unit: 'ms',
        ...bare,
        target: { max: 10, of: 'value' },
      })
      rows.push(...(await statsFigures(server, client, bare)))
      rows.push(...(await sizeFigures(client, RUNS)))
      rows.push(...(await traceFigures(server, client)))
    } finally {
      await server.stop()
      await client.end()
    }
    return rows.map((row) => ({ ...row, suite: `${SUITE}, ${label}` }))
  },
}
