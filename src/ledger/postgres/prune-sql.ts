/**
 * A prune on PostgreSQL (decision 082), with the rules of prune-rules.ts
 * written as one SQL condition, so no run leaves the database to be judged:
 *
 * 1. the rules' inputs: the tests of each branch's latest results, and the
 *    newest runs of each agent that has candidates (an index seek per agent);
 * 2. the candidates counted by the first rule that keeps them;
 * 3. each month wholly before the cut-off whose every run (of any project)
 *    goes: its partitions of runs and traces DETACHed and DROPped, its keys
 *    deleted; checked again once detached (nothing writes a detached table)
 *    and put back if a run turned keepable meanwhile; a month whose lock
 *    is not had within LOCK_WAIT is left to step 4 rather than stall the
 *    ledger behind it;
 * 4. the other candidates DELETEd (runs, then their traces and keys), the
 *    DELETE checking the rules again on each row, so a run graded fail or
 *    still active since step 2 is kept.
 *
 * All in the caller's transaction: a prune that fails changes nothing.
 */
import type pg from 'pg'
import type { RunResults } from '../../results/types.js'
import type { Scope } from '../identity.js'
import { baselineTests, lastPerAgent } from '../prune-rules.js'
import type { PruneOutcome, PrunePolicy } from '../store.js'
import { monthBounds, monthOfPartition } from './partitions.js'

/** How long a month's drop waits for the locks of the runs' and traces' tables before the month is pruned by DELETE instead. */
const LOCK_WAIT = '2s'

/** SQLSTATE lock_not_available: the lock was not had within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03'

/** The rules as SQL over a row of reagent_ledger_runs, with the values their placeholders stand for. */
interface Rules {
  values: unknown[]
  /** The scope's runs: org, namespace, and a narrowed token's agent or session. */
  inScope: string
  last: string
  baseline: string
  failed: string
}

async function rulesOf(client: pg.PoolClient, scope: Scope, policy: PrunePolicy): Promise<Rules> {
  const values: unknown[] = [scope.org, scope.namespace]
  const inScope = ['org = $1', 'namespace = $2']
  if (scope.agent !== undefined) inScope.push(`agent = $${values.push(scope.agent)}`)
  if (scope.session_id !== undefined) inScope.push(`session_id = $${values.push(scope.session_id)}`)
  const scoped = inScope.join(' AND ')
  const before = `$${values.push(policy.before)}`

  const { rows: results } = await client.query<{ results_json: string }>(
    `WITH newest AS (
       SELECT DISTINCT ON (branch) branch, commit_sha FROM reagent_ledger_results WHERE org = $1 AND namespace = $2
       ORDER BY branch, started_at DESC, results_id COLLATE "C" DESC)
     SELECT r.results_json FROM reagent_ledger_results r JOIN newest n ON r.branch IS NOT DISTINCT FROM n.branch AND r.commit_sha = n.commit_sha
     WHERE r.org = $1 AND r.namespace = $2`,
    [scope.org, scope.namespace],
  )
  const tests = [...baselineTests(results.map((row) => JSON.parse(row.results_json) as RunResults))].map((key) => key.split('\u0000'))

  // The newest runs of each agent with a candidate, whatever their age: a seek of the agent index per agent.
  const { rows: newest } = await client.query<{ run_id: string }>(
    `SELECT newest.run_id FROM (SELECT DISTINCT agent FROM reagent_ledger_runs WHERE ${scoped} AND started_at < ${before}) agents
     CROSS JOIN LATERAL (SELECT run_id FROM reagent_ledger_runs WHERE ${scoped} AND agent = agents.agent
       ORDER BY started_at DESC, run_id COLLATE "C" DESC LIMIT $${values.length + 1}) newest`,
    [...values, lastPerAgent(policy)],
  )
  const last = `run_id = ANY($${values.push(newest.map((row) => row.run_id))}::text[])`
  const [commits, files, names] = [0, 1, 2].map((i) => `$${values.push(tests.map((test) => test[i]))}::text[]`)
  const text = (key: string): string => `jsonb_typeof(metadata->'${key}') = 'string'`
  // coalesce: a run without the keys is not a baseline run (false, not null, which NOT would keep null).
  const baseline =
    `coalesce(${text('git_commit')} AND ${text('test_file')} AND ${text('test_name')} AND ` +
    `(metadata->>'git_commit', metadata->>'test_file', metadata->>'test_name') IN (SELECT * FROM unnest(${commits}, ${files}, ${names})), false)`
  const failed = `($${values.push(policy.keepFailed)}::boolean AND (status = 'failed' OR grade IS NOT DISTINCT FROM 'fail'))`
  return { values, inScope: `${scoped} AND started_at < ${before}`, last, baseline, failed }
}

/** The condition of a run the prune removes (the scope and the cut-off included). */
const removable = (rules: Rules): string => `${rules.inScope} AND status <> 'active' AND NOT ${rules.last} AND NOT ${rules.baseline} AND NOT ${rules.failed}`

async function countKept(client: pg.PoolClient, rules: Rules): Promise<{ kept: PruneOutcome['kept']; removed: number }> {
  const open = `status <> 'active'`
  const { rows } = await client.query<{ active: number; last: number; baseline: number; failed: number; removed: number }>(
    `SELECT count(*) FILTER (WHERE status = 'active')::integer AS active,
       count(*) FILTER (WHERE ${open} AND ${rules.last})::integer AS last,
       count(*) FILTER (WHERE ${open} AND NOT ${rules.last} AND ${rules.baseline})::integer AS baseline,
       count(*) FILTER (WHERE ${open} AND NOT ${rules.last} AND NOT ${rules.baseline} AND ${rules.failed})::integer AS failed,
       count(*) FILTER (WHERE ${open} AND NOT ${rules.last} AND NOT ${rules.baseline} AND NOT ${rules.failed})::integer AS removed
     FROM reagent_ledger_runs WHERE ${rules.inScope}`,
    rules.values,
  )
  const { removed, ...kept } = rows[0]!
  return { kept, removed }
}

/** The months of the runs' partitions (not the default one), oldest first. */
async function monthsOf(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'reagent_ledger_runs'::regclass",
  )
  return rows
    .map((row) => monthOfPartition(row.name))
    .filter((month): month is string => month !== undefined)
    .sort()
}

/** How many runs a month's partition holds, and how many of them the prune removes. */
async function countMonth(client: pg.PoolClient, table: string, rules: Rules): Promise<{ runs: number; going: number }> {
  const { rows } = await client.query<{ runs: number; going: number }>(
    `SELECT count(*)::integer AS runs, count(*) FILTER (WHERE ${removable(rules)})::integer AS going FROM ${table}`,
    rules.values,
  )
  return rows[0]!
}

/** Drops a month whose every run goes; the runs dropped, or undefined when it is left to the DELETE (a run turned keepable, or the lock was not had). */
async function dropMonth(client: pg.PoolClient, month: string, rules: Rules): Promise<number | undefined> {
  const runs = `reagent_ledger_runs_p${month}`
  const traces = `reagent_ledger_traces_p${month}`
  const { lower, upper } = monthBounds(month)
  await client.query('SAVEPOINT drop_month')
  try {
    await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`)
    await client.query(`ALTER TABLE reagent_ledger_runs DETACH PARTITION ${runs}`)
    const count = await countMonth(client, runs, rules)
    if (count.runs !== count.going) {
      await client.query('ROLLBACK TO SAVEPOINT drop_month')
      return undefined
    }
    const hasTraces = (await client.query('SELECT to_regclass($1) AS name', [traces])).rows[0]?.name !== null
    if (hasTraces) await client.query(`ALTER TABLE reagent_ledger_traces DETACH PARTITION ${traces}`)
    await client.query('DELETE FROM reagent_ledger_run_keys WHERE org = $1 AND namespace = $2 AND started_at >= $3 AND started_at < $4', [
      rules.values[0],
      rules.values[1],
      lower,
      upper,
    ])
    await client.query(`DROP TABLE ${runs}${hasTraces ? `, ${traces}` : ''}`)
    // A dropped table fires no trigger: run.stats's buckets kept over the month are forgotten here (stats-cache.ts).
    await client.query('DELETE FROM reagent_ledger_stats_cache WHERE org = $1 AND namespace = $2 AND range_start < $4 AND range_end > $3', [
      rules.values[0],
      rules.values[1],
      lower,
      upper,
    ])
    await client.query('SET LOCAL lock_timeout = DEFAULT')
    await client.query('RELEASE SAVEPOINT drop_month')
    return count.runs
  } catch (error) {
    if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error
    await client.query('ROLLBACK TO SAVEPOINT drop_month')
    return undefined
  }
}

/** Deletes the candidates the rules do not keep, with their traces and keys; how many runs went. */
async function deleteRuns(client: pg.PoolClient, rules: Rules): Promise<number> {
  await client.query('CREATE TEMPORARY TABLE reagent_ledger_pruned (run_id text NOT NULL, started_at double precision NOT NULL) ON COMMIT DROP')
  const { rowCount } = await client.query(
    `WITH gone AS (DELETE FROM reagent_ledger_runs WHERE ${removable(rules)} RETURNING run_id, started_at) INSERT INTO reagent_ledger_pruned SELECT * FROM gone`,
    rules.values,
  )
  // Statements of their own, after the runs': a trace.put that locked its run before the DELETE has committed by now, and is seen.
  const [org, namespace] = rules.values
  await client.query(
    `DELETE FROM reagent_ledger_traces t USING reagent_ledger_pruned p
     WHERE t.org = $1 AND t.namespace = $2 AND t.run_id = p.run_id AND t.started_at = p.started_at`,
    [org, namespace],
  )
  await client.query('DELETE FROM reagent_ledger_run_keys k USING reagent_ledger_pruned p WHERE k.org = $1 AND k.namespace = $2 AND k.run_id = p.run_id', [
    org,
    namespace,
  ])
  return rowCount ?? 0
}

/**
 * Prunes `scope` by `policy` in `client`'s transaction; the outcome, and the
 * months whose partitions were dropped. A dry run counts what it would
 * remove, and the months it would drop, and changes nothing.
 */
export async function prunePostgres(client: pg.PoolClient, scope: Scope, policy: PrunePolicy): Promise<{ outcome: PruneOutcome; dropped: string[] }> {
  const rules = await rulesOf(client, scope, policy)
  const { kept, removed: candidates } = await countKept(client, rules)
  const dropped: string[] = []
  let removed = 0
  for (const month of await monthsOf(client)) {
    if (monthBounds(month).upper > policy.before) break
    const count = await countMonth(client, `reagent_ledger_runs_p${month}`, rules)
    if (count.runs !== count.going) continue
    const gone = policy.dryRun ? 0 : await dropMonth(client, month, rules)
    if (gone === undefined) continue
    dropped.push(month)
    removed += gone
  }
  if (policy.dryRun) return { outcome: { removed: candidates, kept, partitionsDropped: dropped.length }, dropped }
  removed += await deleteRuns(client, rules)
  return { outcome: { removed, kept, partitionsDropped: dropped.length }, dropped }
}
