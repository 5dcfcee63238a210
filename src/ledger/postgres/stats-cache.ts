/**
 * run.stats on PostgreSQL with the cells of closed buckets kept (decision
 * 087): a window is read as its first, partial bucket and its buckets not
 * yet closed (from the runs, every time, by stats-sql.ts), and the whole
 * buckets between, each kept as the cells it gave the first time it was
 * asked, per query (group, bucket, agent, scope). A 30-day window per day
 * reads two days of runs instead of thirty.
 *
 * What was kept is never trusted past a change: every statement that
 * inserts, updates or deletes runs logs the hours of the runs it touched
 * (a statement trigger, so every writer of the table is covered, however
 * it batches), and a kept bucket with a change logged in one of its hours
 * since it was computed is read from the runs again. Two margins make that
 * hold across transactions running at once, on the database's own clock:
 *
 * - a bucket is kept only once it ended 10 minutes ago, and the trigger
 *   leaves out runs that started in the last 5 minutes (the writes of runs
 *   as they happen, the hot path, log nothing): a write it leaves out
 *   started 5 minutes before any bucket holding its run can be computed;
 * - a change invalidates what was computed up to 5 minutes before it was
 *   logged (when its transaction started), so a write that had not
 *   committed when a bucket was computed still invalidates it.
 *
 * Both assume a write transaction lasts under 5 minutes (the store's take
 * milliseconds). Kept buckets expire after a day, and the log is swept of
 * what no kept bucket can need. Removing runs without DELETE (dropping a
 * partition) must forget the buckets it empties (DELETE FROM
 * reagent_ledger_stats_cache WHERE range_start < the partition's end).
 */
import type pg from 'pg'
import type { Scope } from '../identity.js'
import { BUCKET_SECONDS, bucketOf, type StatsCell, type StatsQuery } from '../stats-query.js'
import type { UsageSummary } from '../usage-summary.js'
import { cellOf, statsSql, type StatsRow } from './stats-sql.js'

/** Seconds after its end before a bucket is kept. */
const CLOSED_AFTER = 600
/** How often (ms) a store sweeps expired buckets and the changes no kept bucket needs. */
const SWEEP_EVERY_MS = 10 * 60 * 1000

/** Migration 4: the kept buckets, the log of changes, and the triggers that write it. */
export const STATS_CACHE_MIGRATION = `CREATE TABLE reagent_ledger_stats_cache (
     org text NOT NULL,
     namespace text NOT NULL,
     query_key text NOT NULL,
     range_start double precision NOT NULL,
     range_end double precision NOT NULL,
     computed_at timestamptz NOT NULL,
     cells jsonb NOT NULL,
     PRIMARY KEY (org, namespace, query_key, range_start)
   );
   CREATE TABLE reagent_ledger_stats_changes (
     org text NOT NULL,
     namespace text NOT NULL,
     hour double precision NOT NULL,
     logged_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX reagent_ledger_stats_changes_hour ON reagent_ledger_stats_changes (org, namespace, hour, logged_at);
   CREATE FUNCTION reagent_ledger_stats_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO reagent_ledger_stats_changes (org, namespace, hour)
         SELECT DISTINCT org, namespace, floor(started_at / 3600) * 3600 FROM new_runs WHERE started_at < extract(epoch FROM now()) - 300;
     ELSIF TG_OP = 'UPDATE' THEN
       INSERT INTO reagent_ledger_stats_changes (org, namespace, hour)
         SELECT DISTINCT org, namespace, floor(started_at / 3600) * 3600
           FROM (SELECT org, namespace, started_at FROM old_runs UNION ALL SELECT org, namespace, started_at FROM new_runs) changed
          WHERE started_at < extract(epoch FROM now()) - 300;
     ELSE
       INSERT INTO reagent_ledger_stats_changes (org, namespace, hour)
         SELECT DISTINCT org, namespace, floor(started_at / 3600) * 3600 FROM old_runs WHERE started_at < extract(epoch FROM now()) - 300;
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER reagent_ledger_stats_inserted AFTER INSERT ON reagent_ledger_runs
     REFERENCING NEW TABLE AS new_runs FOR EACH STATEMENT EXECUTE FUNCTION reagent_ledger_stats_changed();
   CREATE TRIGGER reagent_ledger_stats_updated AFTER UPDATE ON reagent_ledger_runs
     REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs FOR EACH STATEMENT EXECUTE FUNCTION reagent_ledger_stats_changed();
   CREATE TRIGGER reagent_ledger_stats_deleted AFTER DELETE ON reagent_ledger_runs
     REFERENCING OLD TABLE AS old_runs FOR EACH STATEMENT EXECUTE FUNCTION reagent_ledger_stats_changed();`

/** How a window is read: the whole closed buckets (kept), and the runs read every time before and after them. */
export interface StatsPlan {
  /** The starts of the whole buckets that ended CLOSED_AFTER seconds before `now`, in order. */
  closed: number[]
  /** The window's first bucket when it is partial (only when there are closed buckets after it). */
  head: { from: number; to: number } | undefined
  /** The runs from here on are read every time. */
  tailFrom: number
}

export function planStats(query: Pick<StatsQuery, 'since' | 'bucket'>, now: number): StatsPlan {
  const size = BUCKET_SECONDS[query.bucket]
  const first = bucketOf(query.since, query.bucket)
  const firstWhole = first === query.since ? first : first + size
  const closed: number[] = []
  for (let start = firstWhole; start + size <= now - CLOSED_AFTER; start += size) closed.push(start)
  if (closed.length === 0) return { closed, head: undefined, tailFrom: query.since }
  return { closed, head: query.since < firstWhole ? { from: query.since, to: firstWhole } : undefined, tailFrom: closed.at(-1)! + size }
}

/** What a kept bucket is kept under: the query's group and bucket and every filter that narrows its runs. */
function queryKey(query: StatsQuery, scope: Scope): string {
  return JSON.stringify([query.by, query.bucket, query.agent ?? null, scope.agent ?? null, scope.session_id ?? null])
}

/** A cell as kept (JSON): its models again in a null-prototype object. */
function keptCell(cell: StatsCell): StatsCell {
  return { ...cell, usage: { ...cell.usage, models: Object.assign(Object.create(null) as UsageSummary['models'], cell.usage.models) } }
}

export class StatsCache {
  #sweptAt = 0

  /** The cells of `query` (unordered), read with `client` inside a transaction. */
  async cells(client: pg.PoolClient, query: StatsQuery, scope: Scope): Promise<StatsCell[]> {
    const { rows: clock } = await client.query<{ now: number }>('SELECT extract(epoch FROM now())::float8 AS now')
    const plan = planStats(query, clock[0]!.now)
    const read = async (from: number, to?: number): Promise<StatsCell[]> => {
      const sql = statsSql({ ...query, since: from }, scope, to)
      return (await client.query<StatsRow>(sql.text, sql.values)).rows.map(cellOf)
    }
    if (plan.closed.length === 0) return read(plan.tailFrom)
    await this.#sweep(client)
    const key = queryKey(query, scope)
    const kept = await this.#kept(client, query, key, plan.closed)
    const cells: StatsCell[] = []
    const missing = plan.closed.filter((start) => !kept.has(start))
    for (const cellsOfBucket of kept.values()) cells.push(...cellsOfBucket)
    if (missing.length > 0) {
      const size = BUCKET_SECONDS[query.bucket]
      const computed = new Map<number, StatsCell[]>(missing.map((start) => [start, []]))
      // Contiguous missing buckets are read in one statement.
      for (let i = 0; i < missing.length; ) {
        let j = i
        while (j + 1 < missing.length && missing[j + 1] === missing[j]! + size) j += 1
        for (const cell of await read(missing[i]!, missing[j]! + size)) computed.get(cell.bucket)!.push(cell)
        i = j + 1
      }
      for (const cellsOfBucket of computed.values()) cells.push(...cellsOfBucket)
      await this.#keep(client, query, key, computed)
    }
    if (plan.head !== undefined) cells.push(...(await read(plan.head.from, plan.head.to)))
    cells.push(...(await read(plan.tailFrom)))
    return cells
  }

  /** The kept cells of the buckets starting at `starts` that no change has touched since they were computed. */
  async #kept(client: pg.PoolClient, query: StatsQuery, key: string, starts: readonly number[]): Promise<Map<number, StatsCell[]>> {
    const { rows } = await client.query<{ range_start: number; cells: StatsCell[] }>(
      `SELECT range_start, cells FROM reagent_ledger_stats_cache c
        WHERE org = $1 AND namespace = $2 AND query_key = $3 AND range_start >= $4 AND range_start <= $5
          AND computed_at > now() - interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM reagent_ledger_stats_changes l
                           WHERE l.org = c.org AND l.namespace = c.namespace AND l.hour >= c.range_start AND l.hour < c.range_end
                             AND l.logged_at >= c.computed_at - interval '5 minutes')`,
      [query.org, query.namespace, key, starts[0], starts.at(-1)],
    )
    return new Map(rows.map((row) => [Number(row.range_start), row.cells.map(keptCell)]))
  }

  /** Keeps the buckets just computed; a failure to keep them (another call keeping the same ones) costs the next call a read, not this one its answer. */
  async #keep(client: pg.PoolClient, query: StatsQuery, key: string, computed: Map<number, StatsCell[]>): Promise<void> {
    const buckets = [...computed].map(([start, cells]) => ({ start, cells }))
    await client.query('SAVEPOINT keep_stats')
    try {
      await client.query(
        `INSERT INTO reagent_ledger_stats_cache (org, namespace, query_key, range_start, range_end, computed_at, cells)
         SELECT $1, $2, $3, (b->>'start')::float8, (b->>'start')::float8 + $4, now(), b->'cells' FROM jsonb_array_elements($5::jsonb) b
         ON CONFLICT (org, namespace, query_key, range_start) DO UPDATE SET range_end = EXCLUDED.range_end, computed_at = EXCLUDED.computed_at, cells = EXCLUDED.cells`,
        [query.org, query.namespace, key, BUCKET_SECONDS[query.bucket], JSON.stringify(buckets)],
      )
      await client.query('RELEASE SAVEPOINT keep_stats')
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT keep_stats')
    }
  }

  /** Every SWEEP_EVERY_MS: buckets past their day, and changes older than any kept bucket can need (a day and its margin). */
  async #sweep(client: pg.PoolClient): Promise<void> {
    if (Date.now() - this.#sweptAt < SWEEP_EVERY_MS) return
    this.#sweptAt = Date.now()
    await client.query('SAVEPOINT sweep_stats')
    try {
      await client.query(`DELETE FROM reagent_ledger_stats_cache WHERE computed_at < now() - interval '1 day'`)
      await client.query(`DELETE FROM reagent_ledger_stats_changes WHERE logged_at < now() - interval '1 day 1 hour'`)
      await client.query('RELEASE SAVEPOINT sweep_stats')
    } catch {
      // Another server sweeping the same rows: the next sweep does it.
      await client.query('ROLLBACK TO SAVEPOINT sweep_stats')
    }
  }
}
