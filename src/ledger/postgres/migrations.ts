/**
 * The PostgreSQL store's tables, as numbered migrations applied at start, in
 * one transaction under an advisory lock, so servers starting together on
 * one database apply each migration once. A migration is never edited once
 * released: a change is a new one.
 *
 * Times are epoch seconds in double precision (the directory store orders
 * runs by the same numbers, to the microsecond); `search_text` is what
 * run.list's `q` searches, lower-cased by the server (not by the database's
 * locale), and `relied_on` is the number of memories_used.
 *
 * Migration 1 declares the runs' columns from the definition of a run's
 * fields (run-fields.ts, through run-columns.ts); it is released, so what it
 * yields is pinned byte for byte (test/ledger/run-fields.test.ts). A column
 * added or changed later is a migration of its own (ALTER TABLE), and
 * migration 1 keeps declaring only the columns it created. Migration 4
 * made the runs a partitioned table created LIKE the one before it, so it
 * declares no column of its own.
 */
import type { PoolClient } from 'pg'
import { PARTITIONING_MIGRATION } from './partitions.js'
import { columnDefinitions } from './run-columns.js'
import { STATS_CACHE_MIGRATION } from './stats-cache.js'
import { KEYS_TABLE } from './write-sql.js'

interface Migration {
  sql: string
  /** Applied when the database allows, skipped (and not retried) when not: an index that only speeds things up. */
  optional?: boolean
}

export const MIGRATIONS: readonly Migration[] = [
  {
    sql: `CREATE TABLE reagent_ledger_runs (
${columnDefinitions('     ')}
     PRIMARY KEY (org, namespace, run_id)
   );
   CREATE INDEX reagent_ledger_runs_started ON reagent_ledger_runs (org, namespace, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_duration ON reagent_ledger_runs (org, namespace, duration_ms, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_relied_on ON reagent_ledger_runs (org, namespace, relied_on, started_at, run_id COLLATE "C");
   CREATE INDEX reagent_ledger_runs_session ON reagent_ledger_runs (org, namespace, session_id);
   CREATE INDEX reagent_ledger_runs_status ON reagent_ledger_runs (org, namespace, status);
   CREATE INDEX reagent_ledger_runs_grade ON reagent_ledger_runs (org, namespace, grade);
   CREATE TABLE reagent_ledger_traces (
     org text NOT NULL,
     namespace text NOT NULL,
     run_id text NOT NULL,
     trace_gzip bytea NOT NULL,
     bytes integer NOT NULL,
     stored_at double precision NOT NULL,
     PRIMARY KEY (org, namespace, run_id),
     FOREIGN KEY (org, namespace, run_id) REFERENCES reagent_ledger_runs ON DELETE CASCADE
   );`,
  },
  {
    // run.list's q is a substring search: a trigram index finds it without reading every run. pg_trgm ships
    // with PostgreSQL (contrib) and is a trusted extension; where it cannot be created, q reads every run.
    sql: `CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX reagent_ledger_runs_search ON reagent_ledger_runs USING gin (search_text gin_trgm_ops);`,
    optional: true,
  },
  {
    // results.put / results.list (our extension): a results file as its JSON text (kept byte for byte), with the
    // fields results.list filters and orders by. The branch index answers "main's last N results" without a sort.
    sql: `CREATE TABLE reagent_ledger_results (
     org text NOT NULL,
     namespace text NOT NULL,
     results_id text NOT NULL,
     branch text,
     commit_sha text,
     shard text,
     started_at double precision NOT NULL,
     results_json text NOT NULL,
     stored_at double precision NOT NULL,
     PRIMARY KEY (org, namespace, results_id)
   );
   CREATE INDEX reagent_ledger_results_branch ON reagent_ledger_results (org, namespace, branch, started_at, results_id COLLATE "C");
   CREATE INDEX reagent_ledger_results_started ON reagent_ledger_results (org, namespace, started_at, results_id COLLATE "C");`,
  },
  // Runs and traces partitioned by month, with the key table of run ids (partitions.ts, decision 082). The runs a
  // database holds move in this migration's transaction; the search index of migration 2 goes with the old table.
  { sql: PARTITIONING_MIGRATION },
  {
    // Migration 2's search index, on the partitioned runs.
    sql: `CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX reagent_ledger_runs_search ON reagent_ledger_runs USING gin (search_text gin_trgm_ops);`,
    optional: true,
  },
  // 6: run.stats's kept buckets and the log of the changes that invalidate them (stats-cache.ts, decision 087).
  { sql: STATS_CACHE_MIGRATION },
  // 7: idempotency keys of run.begin and run.complete with the answers they were given (idempotency.ts, write-sql.ts).
  { sql: KEYS_TABLE },
]

/** Any 64-bit number, the same in every process: the advisory lock of migrations. */
const MIGRATION_LOCK = 0x7265_6167_656e_74

/** Applies the migrations the database has not seen; returns how many. */
export async function migrate(client: PoolClient): Promise<number> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await client.query('CREATE TABLE IF NOT EXISTS reagent_ledger_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
    const { rows } = await client.query<{ version: number }>('SELECT version FROM reagent_ledger_migrations')
    const applied = new Set(rows.map((row) => row.version))
    let count = 0
    for (const [index, migration] of MIGRATIONS.entries()) {
      const version = index + 1
      if (applied.has(version)) continue
      if (migration.optional === true) await client.query('SAVEPOINT optional_migration')
      try {
        await client.query(migration.sql)
      } catch (error) {
        if (migration.optional !== true) throw error
        await client.query('ROLLBACK TO SAVEPOINT optional_migration')
      }
      await client.query('INSERT INTO reagent_ledger_migrations (version) VALUES ($1)', [version])
      count += 1
    }
    await client.query('COMMIT')
    return count
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
}
