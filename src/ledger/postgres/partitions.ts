/**
 * Runs and traces by month (decision 082): `reagent_ledger_runs` and
 * `reagent_ledger_traces` are partitioned by range of `started_at` (the
 * run's), one partition per calendar month (UTC) named `<table>_pYYYYMM`,
 * and a default partition `<table>_pdefault` for a run of a month that has
 * none yet, so no write ever fails for want of a partition. Retention drops
 * whole months (prune-sql.ts) instead of deleting rows.
 *
 * A month is added by one SQL function, `reagent_ledger_add_month(seconds)`,
 * that migration 4 creates and everything calls: the migration for the
 * months of the runs it moves, the store at open (this month and the next)
 * and when a begin meets a month it has not seen, a bulk load (COPY) before
 * it loads. Under an advisory lock, so servers sharing a database add a
 * month once; it moves the month's rows out of the default partition first
 * (ATTACH refuses a range the default partition holds rows of).
 *
 * `reagent_ledger_run_keys` keeps run ids unique across partitions (a
 * primary key of a partitioned table must hold its partition key) and tells
 * a lookup by id the started_at that picks its partition.
 */
import type pg from 'pg'

/** The advisory lock of adding a month (the migrations have their own). */
const ADD_MONTH_LOCK = 0x7265_616d_6f6e

/** Migration 4: the runs and traces moved into tables partitioned by month, the key table, and the function that adds a month. */
export const PARTITIONING_MIGRATION = `ALTER TABLE reagent_ledger_runs RENAME TO reagent_ledger_runs_unpartitioned;
   ALTER TABLE reagent_ledger_traces RENAME TO reagent_ledger_traces_unpartitioned;
   CREATE TABLE reagent_ledger_runs (LIKE reagent_ledger_runs_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (started_at);
   CREATE TABLE reagent_ledger_runs_pdefault PARTITION OF reagent_ledger_runs DEFAULT;
   CREATE TABLE reagent_ledger_traces (
     org text NOT NULL,
     namespace text NOT NULL,
     run_id text NOT NULL,
     started_at double precision NOT NULL,
     trace_gzip bytea NOT NULL,
     bytes integer NOT NULL,
     stored_at double precision NOT NULL
   ) PARTITION BY RANGE (started_at);
   CREATE TABLE reagent_ledger_traces_pdefault PARTITION OF reagent_ledger_traces DEFAULT;
   CREATE TABLE reagent_ledger_run_keys (
     org text NOT NULL,
     namespace text NOT NULL,
     run_id text NOT NULL,
     started_at double precision NOT NULL,
     PRIMARY KEY (org, namespace, run_id)
   );
   CREATE FUNCTION reagent_ledger_add_month(at double precision) RETURNS boolean LANGUAGE plpgsql AS $add_month$
   DECLARE
     first_day timestamp := date_trunc('month', to_timestamp(at) AT TIME ZONE 'UTC');
     lower_bound double precision := extract(epoch FROM first_day);
     upper_bound double precision := extract(epoch FROM first_day + interval '1 month');
     suffix text := '_p' || to_char(first_day, 'YYYYMM');
     parent text;
   BEGIN
     PERFORM pg_advisory_xact_lock(${ADD_MONTH_LOCK});
     IF to_regclass('reagent_ledger_runs' || suffix) IS NOT NULL THEN
       RETURN false;
     END IF;
     FOREACH parent IN ARRAY ARRAY['reagent_ledger_runs', 'reagent_ledger_traces'] LOOP
       EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', parent || suffix, parent);
       EXECUTE format('WITH moved AS (DELETE FROM %I WHERE started_at >= %L AND started_at < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
         parent || '_pdefault', lower_bound, upper_bound, parent || suffix);
       EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, parent || suffix, lower_bound, upper_bound);
     END LOOP;
     RETURN true;
   END
   $add_month$;
   SELECT reagent_ledger_add_month(min(started_at)) FROM reagent_ledger_runs_unpartitioned
     GROUP BY date_trunc('month', to_timestamp(started_at) AT TIME ZONE 'UTC');
   INSERT INTO reagent_ledger_runs SELECT * FROM reagent_ledger_runs_unpartitioned;
   INSERT INTO reagent_ledger_run_keys SELECT org, namespace, run_id, started_at FROM reagent_ledger_runs_unpartitioned;
   INSERT INTO reagent_ledger_traces
     SELECT t.org, t.namespace, t.run_id, r.started_at, t.trace_gzip, t.bytes, t.stored_at
     FROM reagent_ledger_traces_unpartitioned t JOIN reagent_ledger_runs_unpartitioned r USING (org, namespace, run_id);
   DROP TABLE reagent_ledger_traces_unpartitioned;
   DROP TABLE reagent_ledger_runs_unpartitioned;
   ALTER TABLE reagent_ledger_runs ADD PRIMARY KEY (org, namespace, run_id, started_at);
   CREATE INDEX reagent_ledger_runs_started ON reagent_ledger_runs (org, namespace, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_duration ON reagent_ledger_runs (org, namespace, duration_ms, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_relied_on ON reagent_ledger_runs (org, namespace, relied_on, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_agent ON reagent_ledger_runs (org, namespace, agent, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_session ON reagent_ledger_runs (org, namespace, session_id, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_status ON reagent_ledger_runs (org, namespace, status, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_grade ON reagent_ledger_runs (org, namespace, grade, started_at, run_id COLLATE "C");
   ALTER TABLE reagent_ledger_traces ADD PRIMARY KEY (org, namespace, run_id, started_at);
   CREATE INDEX reagent_ledger_run_keys_started ON reagent_ledger_run_keys (started_at);`

/** A month as `YYYYMM` (UTC), the suffix of its partitions' names. */
export function monthOf(seconds: number): string {
  const date = new Date(seconds * 1000)
  return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`
}

/** The epoch seconds a `YYYYMM` month starts at and the next one starts at (its partitions' bounds). */
export function monthBounds(month: string): { lower: number; upper: number } {
  const year = Number(month.slice(0, -2))
  const index = Number(month.slice(-2)) - 1
  return { lower: Date.UTC(year, index, 1) / 1000, upper: Date.UTC(year, index + 1, 1) / 1000 }
}

/** A runs partition's name, `reagent_ledger_runs_pYYYYMM`, as `YYYYMM`; undefined for the default partition. */
export function monthOfPartition(name: string): string | undefined {
  return /^reagent_ledger_runs_p(\d{6,})$/.exec(name)?.[1]
}

/**
 * The months this store knows have partitions, and the one call that adds
 * a month (shared by concurrent begins of the same new month).
 */
export class MonthPartitions {
  readonly #known = new Set<string>()
  readonly #adding = new Map<string, Promise<void>>()

  /** The month of `seconds` has its partitions; adds them when this store has not seen it. */
  ensure(pool: pg.Pool, seconds: number): Promise<void> {
    const month = monthOf(seconds)
    if (this.#known.has(month)) return Promise.resolve()
    let adding = this.#adding.get(month)
    if (adding === undefined) {
      adding = pool
        .query('SELECT reagent_ledger_add_month($1)', [monthBounds(month).lower])
        .then(() => void this.#known.add(month))
        .finally(() => this.#adding.delete(month))
      this.#adding.set(month, adding)
    }
    return adding
  }

  /** Forgets a month whose partitions a prune dropped. */
  forget(month: string): void {
    this.#known.delete(month)
  }
}
