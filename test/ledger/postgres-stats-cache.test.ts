/**
 * run.stats on PostgreSQL keeps the cells of closed buckets (decision 087)
 * and reads a kept bucket from the runs again once a write touched one of
 * its runs. The runs here are days old on the database's clock (the
 * conformance suite's are in 2027, where no bucket has closed yet).
 */
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { planStats } from '../../src/ledger/postgres/stats-cache.js'
import { pricedTrace } from './conformance/get-grade.js'
import { POSTGRES_URL, postgresLedgers, type TestLedger } from './harness.js'

const HOUR = 3600
const DAY = 86_400

describe('planStats', () => {
  it('reads the partial first bucket and the buckets closed less than 10 minutes ago from the runs, and keeps the whole ones between', () => {
    const now = 10 * DAY + 5 * HOUR
    expect(planStats({ since: now - 3 * DAY, bucket: 'day' }, now)).toEqual({
      closed: [8 * DAY, 9 * DAY],
      head: { from: 7 * DAY + 5 * HOUR, to: 8 * DAY },
      tailFrom: 10 * DAY,
    })
    // Aligned to a bucket: no partial head. Five minutes after the hour: the last hour is not closed yet.
    expect(planStats({ since: 10 * DAY, bucket: 'hour' }, 10 * DAY + 3 * HOUR + 300)).toEqual({
      closed: [10 * DAY, 10 * DAY + HOUR],
      head: undefined,
      tailFrom: 10 * DAY + 2 * HOUR,
    })
    // Nothing closed: the whole window is read from the runs.
    expect(planStats({ since: now - 2 * HOUR, bucket: 'week' }, now)).toEqual({ closed: [], head: undefined, tailFrom: now - 2 * HOUR })
  })
})

describe.skipIf(POSTGRES_URL === undefined)('run.stats on PostgreSQL, closed buckets kept', () => {
  const ledgers = postgresLedgers()
  afterAll(ledgers.drop)

  async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: await ledgers.url() })
    await client.connect()
    try {
      return (await client.query<R>(text, values)).rows
    } finally {
      await client.end()
    }
  }

  /** The database's clock, in whole seconds. */
  async function databaseNow(): Promise<number> {
    return Math.floor((await sql<{ now: number }>('SELECT extract(epoch FROM now())::float8 AS now'))[0]!.now)
  }

  async function run(ledger: TestLedger, runId: string, at: number, end?: { status: string; duration: number }): Promise<void> {
    ledger.clock.seconds = at
    expect((await ledger.call('run.begin', { run_id: runId, agent: 'refund-agent', goal: 'Refund order 42' })).status).toBe(200)
    if (end !== undefined) expect((await ledger.call('run.complete', { run_id: runId, status: end.status, duration_ms: end.duration })).status).toBe(200)
  }

  /**
   * Ten minutes pass for what the store logged and kept (the changes and the kept buckets move back
   * together): the writes so far are older than the 5-minute margin, and what was kept before a write
   * stays older than it.
   */
  async function tenMinutesPass(ledger: TestLedger): Promise<void> {
    await sql(`UPDATE reagent_ledger_stats_changes SET logged_at = logged_at - interval '10 minutes' WHERE org = $1`, [ledger.org])
    await sql(`UPDATE reagent_ledger_stats_cache SET computed_at = computed_at - interval '10 minutes' WHERE org = $1`, [ledger.org])
  }

  type Row = { bucket_start: string; runs: number; closed: number; passed: number; input_tokens: number; duration_p50_ms: number | null }
  /** run.stats by agent per day over 7 days, ten minutes after the last write. */
  async function dayRows(ledger: TestLedger, now: number): Promise<Array<[string, number, number, number, number]>> {
    await tenMinutesPass(ledger)
    ledger.clock.seconds = now
    const reply = await ledger.call<{ rows: Row[] }>('run.stats', { by: 'agent', bucket: 'day', since: '7d' })
    expect(reply.status).toBe(200)
    return reply.body.rows.map((row) => [row.bucket_start.slice(0, 10), row.runs, row.closed, row.passed, row.input_tokens])
  }

  const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10)

  it('keeps every closed day of a 7-day window after the first call, and answers the next call from what it kept', async () => {
    const ledger = await ledgers.start()
    const now = await databaseNow()
    const threeDaysAgo = now - 3 * DAY
    await run(ledger, 'r1', threeDaysAgo, { status: 'completed', duration: 1000 })
    await run(ledger, 'r2', threeDaysAgo + 60, { status: 'failed', duration: 3000 })
    await run(ledger, 'r3', now - 2 * DAY, { status: 'completed', duration: 500 })
    const expected = [
      [dayOf(threeDaysAgo), 2, 2, 1, 0],
      [dayOf(now - 2 * DAY), 1, 1, 1, 0],
    ]
    expect(await dayRows(ledger, now)).toEqual(expected)
    const kept = await sql<{ range_start: number; cells: Array<{ runs: number }> }>(
      'SELECT range_start, cells FROM reagent_ledger_stats_cache WHERE org = $1 ORDER BY range_start',
      [ledger.org],
    )
    const plan = planStats({ since: now - 7 * DAY, bucket: 'day' }, await databaseNow())
    expect(kept.map((row) => row.range_start)).toEqual(plan.closed)
    expect(kept.map((row) => row.cells.map((cell) => cell.runs))).toEqual(
      plan.closed.map((start) => (start === Math.floor(threeDaysAgo / DAY) * DAY ? [2] : start === Math.floor((now - 2 * DAY) / DAY) * DAY ? [1] : [])),
    )
    // What the next call answers is what was kept: changed behind the store's back, the change shows.
    await sql(`UPDATE reagent_ledger_stats_cache SET cells = jsonb_set(cells, '{0,runs}', '7') WHERE org = $1 AND range_start = $2`, [
      ledger.org,
      Math.floor(threeDaysAgo / DAY) * DAY,
    ])
    expect(await dayRows(ledger, now)).toEqual([[dayOf(threeDaysAgo), 7, 2, 1, 0], expected[1]])
  })

  it('reads a kept day from the runs again after a grade, a completion, a trace or a removal touches one of its runs', async () => {
    const ledger = await ledgers.start()
    const now = await databaseNow()
    const at = now - 3 * DAY
    await run(ledger, 'done', at, { status: 'completed', duration: 1000 })
    await run(ledger, 'open', at + 60)
    await run(ledger, 'gone', at + 120, { status: 'completed', duration: 2000 })
    const day = dayOf(at)
    const kept = async (): Promise<number[]> =>
      (
        await sql<{ runs: number }>(`SELECT (cells->0->>'runs')::integer AS runs FROM reagent_ledger_stats_cache WHERE org = $1 AND range_start = $2`, [
          ledger.org,
          Math.floor(at / DAY) * DAY,
        ])
      ).map((row) => row.runs)
    expect(await dayRows(ledger, now)).toEqual([[day, 3, 2, 2, 0]])
    expect(await kept()).toEqual([3])

    ledger.clock.seconds = now
    expect((await ledger.call('run.grade', { run_id: 'done', grade: 'fail' })).status).toBe(200)
    expect(await dayRows(ledger, now)).toEqual([[day, 3, 2, 1, 0]])

    expect((await ledger.call('run.complete', { run_id: 'open', status: 'completed', duration_ms: 4000 })).status).toBe(200)
    expect(await dayRows(ledger, now)).toEqual([[day, 3, 3, 2, 0]])

    expect((await ledger.call('trace.put', { run_id: 'open', trace: pricedTrace() })).status).toBe(200)
    expect(await dayRows(ledger, now)).toEqual([[day, 3, 3, 2, 2010]])

    await sql('DELETE FROM reagent_ledger_runs WHERE org = $1 AND run_id = $2', [ledger.org, 'gone'])
    expect(await dayRows(ledger, now)).toEqual([[day, 2, 2, 1, 2010]])
    expect(await kept()).toEqual([2])
  })

  it('logs no change for runs begun and completed within 5 minutes of their start (the writes as they happen), and the hour of an older one', async () => {
    const ledger = await ledgers.start()
    const now = await databaseNow()
    await run(ledger, 'fresh', now, { status: 'completed', duration: 1000 })
    await run(ledger, 'late', now - 2 * DAY)
    const changes = (): Promise<Array<{ hour: number }>> => sql('SELECT hour FROM reagent_ledger_stats_changes WHERE org = $1 ORDER BY hour', [ledger.org])
    const lateHour = Math.floor((now - 2 * DAY) / HOUR) * HOUR
    expect(await changes()).toEqual([{ hour: lateHour }])
    ledger.clock.seconds = now
    expect((await ledger.call('run.complete', { run_id: 'late', status: 'failed', duration_ms: 10 })).status).toBe(200)
    expect(await changes()).toEqual([{ hour: lateHour }, { hour: lateHour }])
  })
})
