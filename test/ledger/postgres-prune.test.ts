/**
 * A prune on PostgreSQL drops whole months (partitions.ts, prune-sql.ts):
 * a month before the cut-off whose every run goes loses its partitions of
 * runs and traces and its keys; in the other months the runs that go are
 * deleted with their traces and keys; the rules keep active runs, each
 * agent's newest, the runs of a branch's latest results and (asked) failed
 * ones; another project's run keeps its month; a dry run counts and changes
 * nothing.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import type { PrunePolicy } from '../../src/ledger/store.js'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { resultsOf } from './conformance/results.js'
import { createDatabase, POSTGRES_URL } from './harness.js'

/** Day `day` of `month` (1-12) of 2019, UTC, in epoch seconds: months long past, apart from the ones the store adds at open. */
const at = (month: number, day: number): number => Date.UTC(2019, month - 1, day) / 1000
const CUT_OFF = at(6, 1)

const scope = { org: 'acme', namespace: 'ci' }
const baselineTest = { git_commit: 'c2', test_file: 'test/agent.test.ts', test_name: 'refunds order 42' }

/** id, namespace, agent, when, how it ended (null: still active), metadata. */
const RUNS: Array<[string, string, string, number, 'completed' | 'failed' | null, object?]> = [
  ['jan-1', 'ci', 'A', at(1, 3), 'completed'],
  ['jan-2', 'ci', 'B', at(1, 4), 'completed'],
  ['jan-3', 'ci', 'A', at(1, 31), 'failed'],
  ['feb-1', 'ci', 'A', at(2, 2), 'completed'],
  ['feb-2', 'ci', 'A', at(2, 3), null],
  ['mar-1', 'ci', 'A', at(3, 5), 'completed', baselineTest],
  ['mar-2', 'ci', 'B', at(3, 6), 'completed'],
  ['mar-3', 'ci', 'A', at(3, 7), 'completed', { ...baselineTest, git_commit: 'c1' }],
  ['apr-1', 'other', 'A', at(4, 1), 'completed'],
  ['apr-2', 'ci', 'A', at(4, 2), 'completed'],
  ['may-1', 'ci', 'A', at(5, 2), 'completed'],
  ['may-2', 'ci', 'B', at(5, 3), 'completed'],
  ['jun-1', 'ci', 'A', at(6, 10), 'completed'],
]

describe.skipIf(POSTGRES_URL === undefined)('prune on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> }
  let client: pg.Client
  let store: PostgresStore
  beforeAll(async () => {
    database = await createDatabase()
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
    store = await PostgresStore.open({ url: database.url })
    for (const [runId, namespace, agent, started, ending, metadata] of RUNS) {
      await store.begin(checkedInput('run.begin', { org: 'acme', namespace, agent, goal: 'g', run_id: runId, metadata: metadata ?? {} }), runId, started)
      if (ending !== null)
        await store.complete({ org: 'acme', namespace }, checkedInput('run.complete', { org: 'acme', namespace, run_id: runId, status: ending }), started + 60)
    }
    for (const runId of ['jan-1', 'mar-1', 'mar-2']) await store.putTrace(scope, runId, { trace_format: '1', trace_id: runId, turns: [] } as never)
    // main's older results (commit c1) and its latest (c2): only the latest keep their runs.
    await store.putResults(scope, 'r1', resultsOf('main', 1), at(5, 1))
    await store.putResults(scope, 'r2', resultsOf('main', 2), at(5, 1))
  })
  afterAll(async () => {
    await store?.close()
    await client?.end()
    await database?.drop()
  })

  const rows = async (sql: string): Promise<string[]> => (await client.query<{ v: string }>(sql)).rows.map((row) => row.v)
  const state = async () => ({
    runs: await rows('SELECT run_id AS v FROM reagent_ledger_runs ORDER BY started_at'),
    keys: await rows('SELECT run_id AS v FROM reagent_ledger_run_keys ORDER BY started_at'),
    traces: await rows('SELECT run_id AS v FROM reagent_ledger_traces ORDER BY started_at'),
    months: await rows("SELECT relname AS v FROM pg_class WHERE relkind = 'r' AND relname ~ '^reagent_ledger_(runs|traces)_p2019' ORDER BY relname"),
  })
  const policy = (rules: Partial<PrunePolicy>): PrunePolicy => ({ before: CUT_OFF, keepFailed: false, keepLastPerAgent: 1, dryRun: false, ...rules })
  const everyMonth = [1, 2, 3, 4, 5, 6].flatMap((month) => [`reagent_ledger_runs_p20190${month}`, `reagent_ledger_traces_p20190${month}`]).sort()

  it('counts without a change on a dry run, the months it would drop included; a failed run kept by keepFailed keeps its month', async () => {
    const before = await state()
    expect(before.months).toEqual(everyMonth)
    expect(await store.prune(scope, policy({ dryRun: true }))).toEqual({
      removed: 8,
      kept: { active: 1, last: 1, baseline: 1, failed: 0 },
      partitionsDropped: 1,
    })
    expect(await store.prune(scope, policy({ dryRun: true, keepFailed: true }))).toEqual({
      removed: 7,
      kept: { active: 1, last: 1, baseline: 1, failed: 1 },
      partitionsDropped: 0,
    })
    expect(await store.prune(scope, policy({ dryRun: true, keepLastPerAgent: 3 }))).toEqual({
      removed: 4,
      kept: { active: 1, last: 5, baseline: 1, failed: 0 },
      partitionsDropped: 0,
    })
    expect(await state()).toEqual(before)
  })

  it('drops the month whose every run goes, deletes the other runs that go with their traces and keys, and keeps what the rules keep', async () => {
    expect(await store.prune(scope, policy({}))).toEqual({ removed: 8, kept: { active: 1, last: 1, baseline: 1, failed: 0 }, partitionsDropped: 1 })
    expect(await state()).toEqual({
      runs: ['feb-2', 'mar-1', 'apr-1', 'may-2', 'jun-1'],
      keys: ['feb-2', 'mar-1', 'apr-1', 'may-2', 'jun-1'],
      traces: ['mar-1'],
      months: everyMonth.filter((name) => !name.endsWith('201901')),
    })
    expect(await store.get(scope, 'jan-1')).toBeUndefined()
    expect(await store.getTrace(scope, 'mar-2')).toBeUndefined()
    expect(await store.getTrace(scope, 'mar-1')).toEqual({ trace_format: '1', trace_id: 'mar-1', turns: [] })
    expect((await store.get({ org: 'acme', namespace: 'other' }, 'apr-1'))?.status).toBe('completed')
    // Pruned again, nothing more goes; a run begun in the dropped month gets its partition back.
    expect(await store.prune(scope, policy({}))).toEqual({ removed: 0, kept: { active: 1, last: 1, baseline: 1, failed: 0 }, partitionsDropped: 0 })
    await store.begin(checkedInput('run.begin', { ...scope, agent: 'A', goal: 'g', run_id: 'jan-9' }), 'jan-9', at(1, 9))
    expect((await state()).months).toEqual(everyMonth)
    expect((await store.get(scope, 'jan-9'))?.started_at).toBe(at(1, 9))
  })

  it("forgets run.stats's kept buckets over a month it drops (a dropped table fires no trigger)", async () => {
    const team = { org: 'stats', namespace: 'ci' }
    for (const [runId, started] of [
      ['nov-1', at(11, 4)],
      ['nov-2', at(11, 5)],
      ['dec-1', at(12, 2)],
    ] as const) {
      await store.begin(checkedInput('run.begin', { ...team, agent: 'A', goal: 'g', run_id: runId }), runId, started)
      await store.complete(team, checkedInput('run.complete', { ...team, run_id: runId, status: 'completed' }), started + 1)
    }
    // Their writes were logged an hour ago (as if loaded then): the buckets computed from now on are kept and trusted.
    await client.query("UPDATE reagent_ledger_stats_changes SET logged_at = now() - interval '1 hour' WHERE org = 'stats'")
    const weeks = async (): Promise<Array<[number, number]>> =>
      (await store.stats({ ...team, by: 'agent', bucket: 'week', since: at(10, 1) }, team)).map((cell) => [cell.bucket, cell.runs])
    const novemberWeek = Date.UTC(2019, 10, 4) / 1000
    const decemberWeek = Date.UTC(2019, 11, 2) / 1000
    expect(await weeks()).toEqual([
      [novemberWeek, 2],
      [decemberWeek, 1],
    ])
    // Asked once more, November's week comes from the kept buckets.
    expect(await rows("SELECT count(*)::text AS v FROM reagent_ledger_stats_cache WHERE org = 'stats'")).not.toEqual(['0'])
    expect(await store.prune(team, policy({ before: at(12, 1) }))).toEqual({
      removed: 2,
      kept: { active: 0, last: 0, baseline: 0, failed: 0 },
      partitionsDropped: 1,
    })
    expect(await weeks()).toEqual([[decemberWeek, 1]])
  })

  it('prunes a month by DELETE when its tables stay busy past the wait, and drops it, emptied, once they are not', async () => {
    const busy = { org: 'busy', namespace: 'ci' }
    for (const [runId, started] of [
      ['aug-1', at(8, 1)],
      ['aug-2', at(8, 2)],
      ['oct-1', at(10, 1)],
    ] as const) {
      await store.begin(checkedInput('run.begin', { ...busy, agent: 'A', goal: 'g', run_id: runId }), runId, started)
      await store.complete(busy, checkedInput('run.complete', { ...busy, run_id: runId, status: 'completed' }), started + 1)
    }
    // A long read of August holds a lock its DETACH waits for.
    const reader = new pg.Client({ connectionString: database.url })
    await reader.connect()
    try {
      await reader.query('BEGIN')
      await reader.query('SELECT count(*) FROM reagent_ledger_runs_p201908')
      const started = Date.now()
      expect(await store.prune(busy, policy({ before: at(9, 1) }))).toEqual({
        removed: 2,
        kept: { active: 0, last: 0, baseline: 0, failed: 0 },
        partitionsDropped: 0,
      })
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
      await reader.query('COMMIT')
    } finally {
      await reader.end()
    }
    expect(await rows("SELECT run_id AS v FROM reagent_ledger_runs WHERE org = 'busy' ORDER BY run_id")).toEqual(['oct-1'])
    expect(await rows("SELECT relname AS v FROM pg_class WHERE relname = 'reagent_ledger_runs_p201908'")).toEqual(['reagent_ledger_runs_p201908'])
    expect(await store.prune(busy, policy({ before: at(9, 1) }))).toEqual({
      removed: 0,
      kept: { active: 0, last: 0, baseline: 0, failed: 0 },
      partitionsDropped: 1,
    })
    expect(await rows("SELECT relname AS v FROM pg_class WHERE relname ~ '^reagent_ledger_(runs|traces)_p201908$'")).toEqual([])
  })
})
