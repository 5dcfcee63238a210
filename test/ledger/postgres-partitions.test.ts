/**
 * Runs and traces partitioned by month on PostgreSQL (partitions.ts): the
 * store adds a month's partitions ahead (at open, and when a begin meets a
 * month it has none for), servers adding one month at once add it once, runs
 * a load put in the default partition move to their month when it is added,
 * a lookup by id reads one partition, and every order of run.list is read
 * from an index.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listSql } from '../../src/ledger/postgres/list-sql.js'
import { monthBounds, monthOf } from '../../src/ledger/postgres/partitions.js'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import { placeholders, RUN_COLUMNS, valuesOf } from '../../src/ledger/postgres/run-columns.js'
import { SELECT_RUN } from '../../src/ledger/postgres/run-sql.js'
import { LIST_ORDERS } from '../../src/ledger/input-schemas.js'
import { orderKeyOf, primaryOf, type ListQuery } from '../../src/ledger/list-query.js'
import { openedRun } from '../../src/ledger/run-rules.js'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { createDatabase, POSTGRES_URL } from './harness.js'

/** 2031-05-10 and 2031-07-02 UTC: months no other test uses. */
const MAY_2031 = 1_936_224_000
const JULY_2031 = 1_940_889_600

describe.skipIf(POSTGRES_URL === undefined)('PostgreSQL runs partitioned by month', () => {
  let database: { url: string; drop: () => Promise<void> }
  let client: pg.Client
  beforeAll(async () => {
    database = await createDatabase()
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await database?.drop()
  })

  const partitions = async (): Promise<string[]> =>
    (
      await client.query<{ name: string }>(
        "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'reagent_ledger_runs'::regclass ORDER BY 1",
      )
    ).rows.map((row) => row.name)
  const placeOf = async (runId: string): Promise<string[]> =>
    (
      await client.query<{ part: string }>(
        `SELECT tableoid::regclass::text AS part FROM reagent_ledger_runs WHERE run_id = $1
         UNION ALL SELECT tableoid::regclass::text FROM reagent_ledger_traces WHERE run_id = $1`,
        [runId],
      )
    ).rows.map((row) => row.part)
  const begin = (at: number, runId: string) =>
    checkedInput('run.begin', { org: 'acme', namespace: 'ci', agent: 'refund-agent', goal: `Refund ${runId}`, run_id: runId, metadata: { at } })
  const scope = { org: 'acme', namespace: 'ci' }

  it('adds this month and the next at open, and a month a begin meets without one; its run and its trace (gzip, its stored size reported) live there', async () => {
    const now = Date.now() / 1000
    const store = await PostgresStore.open({ url: database.url })
    try {
      const thisMonth = `reagent_ledger_runs_p${monthOf(now)}`
      const nextMonth = `reagent_ledger_runs_p${monthOf(monthBounds(monthOf(now)).upper)}`
      expect(await partitions()).toEqual([thisMonth, nextMonth, 'reagent_ledger_runs_pdefault'].sort())
      await store.begin(begin(MAY_2031, 'may-1'), 'may-1', MAY_2031)
      const trace = { trace_format: '1', trace_id: 'may-1', turns: [], metadata: { note: 'the same words again '.repeat(500) } }
      const stored = await store.putTrace(scope, 'may-1', trace as never)
      const kept = await client.query<{ size: number }>("SELECT octet_length(trace_gzip) AS size FROM reagent_ledger_traces WHERE run_id = 'may-1'")
      // stored_bytes is the gzip kept, a fraction of the JSON text; the trace comes back as it went in.
      expect(stored).toEqual({ turns: 0, bytes: JSON.stringify(trace).length, stored_bytes: kept.rows[0]!.size })
      expect(stored!.stored_bytes).toBeLessThan(stored!.bytes / 20)
      expect(await store.getTrace(scope, 'may-1')).toEqual(trace)
      expect(await partitions()).toEqual([thisMonth, nextMonth, 'reagent_ledger_runs_p203105', 'reagent_ledger_runs_pdefault'].sort())
      expect(await placeOf('may-1')).toEqual(['reagent_ledger_runs_p203105', 'reagent_ledger_traces_p203105'])
      expect((await store.get(scope, 'may-1'))?.started_at).toBe(MAY_2031)
    } finally {
      await store.close()
    }
  })

  it('adds each month once when servers add it at once, and moves the runs a load left in the default partition into it, traces with them', async () => {
    // A bulk load before its months were added: runs of July 2031 in the default partition.
    const loaded = openedRun(begin(JULY_2031, 'july-1'), 'july-1', JULY_2031)
    await client.query(`INSERT INTO reagent_ledger_runs (${RUN_COLUMNS.join(', ')}) VALUES (${placeholders()})`, valuesOf(loaded))
    await client.query('INSERT INTO reagent_ledger_run_keys VALUES ($1, $2, $3, $4)', ['acme', 'ci', 'july-1', JULY_2031])
    await client.query("INSERT INTO reagent_ledger_traces VALUES ('acme', 'ci', 'july-1', $1, '\\x1f8b', 2, 0)", [JULY_2031])
    expect(await placeOf('july-1')).toEqual(['reagent_ledger_runs_pdefault', 'reagent_ledger_traces_pdefault'])
    const servers = await Promise.all(Array.from({ length: 6 }, () => PostgresStore.open({ url: database.url })))
    try {
      const runIds = servers.map((_, i) => `july-${i + 2}`)
      await Promise.all(servers.map((store, i) => store.begin(begin(JULY_2031 + i, runIds[i]!), runIds[i]!, JULY_2031 + i)))
      expect((await partitions()).filter((name) => name.endsWith('203107'))).toEqual(['reagent_ledger_runs_p203107'])
      for (const runId of ['july-1', ...runIds]) expect((await placeOf(runId))[0]).toBe('reagent_ledger_runs_p203107')
      expect(await placeOf('july-1')).toEqual(['reagent_ledger_runs_p203107', 'reagent_ledger_traces_p203107'])
      expect(await servers[0]!.get(scope, 'july-1')).toEqual(loaded)
      expect((await client.query('SELECT count(*)::integer AS n FROM reagent_ledger_runs_pdefault')).rows).toEqual([{ n: 0 }])
    } finally {
      await Promise.all(servers.map((store) => store.close()))
    }
  })

  it("reads a run by id from its month alone, and run.list's pages through an index of every month, a cursor's page from an index seek", async () => {
    const store = await PostgresStore.open({ url: database.url })
    try {
      for (const month of [0, 1, 2]) await client.query('SELECT reagent_ledger_add_month($1)', [1_893_456_000 + month * 2_678_400])
      // 6,000 runs over three months of 2030, in another namespace, for plans that read like a ledger's.
      await client.query(
        `INSERT INTO reagent_ledger_runs SELECT 'acme', 'plans', 'r' || i, 'agent-' || (i % 7), '-', 's' || (i % 50), 'g', '', '', '', '', '',
           'completed', 1893456000 + i * 1200, NULL, i % 997, '', 0, NULL, NULL, NULL, NULL, NULL, '[]', i % 3, '{}', 0, 0, NULL, 'g'
         FROM generate_series(1, 6000) i`,
      )
      await client.query("INSERT INTO reagent_ledger_run_keys SELECT org, namespace, run_id, started_at FROM reagent_ledger_runs WHERE namespace = 'plans'")
      await client.query('ANALYZE')
      const plan = async (text: string, values: unknown[]): Promise<string> =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${text}`, values)).rows
          .map((row) => row['QUERY PLAN'])
          .join('\n')
      // The plan's page: the Limit and what it reads (the rows of the page are joined to it after, 51 of them at most).
      const pageOf = (text: string): string[] => {
        const lines = text.split('\n')
        const at = lines.findIndex((line) => /^\s*(->\s*)?Limit\b/.test(line))
        const depth = lines[at]!.search(/\S/)
        const end = lines.findIndex((line, i) => i > at && line.search(/\S/) <= depth)
        return lines.slice(at, end === -1 ? undefined : end)
      }
      // How a page reads the months that hold runs: `seek` (their order's index, from the cursor's place on), `index`, or `scan` (a month read whole).
      const howRead = (page: string[]): string => {
        if (page.some((line) => /Seq Scan on reagent_ledger_runs_p2030/.test(line))) return 'scan'
        return page.some((line) => /Index Cond: .*ROW\(/.test(line)) ? 'seek' : 'index'
      }
      const byId = await plan(SELECT_RUN, ['acme', 'plans', 'r4000'])
      const read = byId.split('\n').filter((line) => /Scan .* on reagent_ledger_runs_p/.test(line) && !line.includes('never executed'))
      expect(read).toHaveLength(1)
      expect(read[0]).toContain('reagent_ledger_runs_p203002')
      // Every order unfiltered, and the start orders (run.list's default) filtered by agent, session or status: their first
      // page comes from an index, the page after a cursor from an index seek to its place (6,000 runs: the planner may
      // still sort what it reads; the plans of 10,000,000 runs are the scale bench's).
      const cases: Array<[ListQuery['orderBy'], Partial<ListQuery>]> = [
        ...LIST_ORDERS.map((order): [ListQuery['orderBy'], Partial<ListQuery>] => [order, {}]),
        ...(['started_desc', 'started_asc'] as const).flatMap((order) =>
          [{ agent: 'agent-3' }, { session_id: 's7' }, { status: 'completed' as const }].map((filter): [ListQuery['orderBy'], Partial<ListQuery>] => [
            order,
            filter,
          ]),
        ),
      ]
      for (const [order, filter] of cases) {
        const query: ListQuery = { org: 'acme', namespace: 'plans', orderBy: order, limit: 50, offset: 0, ...filter }
        const firstPage = await store.list(query, scope)
        const last = firstPage.runs.at(-1)!
        const { key } = orderKeyOf(order)
        const after = { ...query, after: { primary: primaryOf(last, key), started_at: last.started_at, run_id: last.run_id } }
        const plans = [
          await plan(listSql(query, scope).page.text, listSql(query, scope).page.values),
          await plan(listSql(after, scope).page.text, listSql(after, scope).page.values),
        ]
        expect({ order, filter, pages: plans.map((text) => howRead(pageOf(text))) }).toEqual({ order, filter, pages: ['index', 'seek'] })
      }
    } finally {
      await store.close()
    }
  })
})
