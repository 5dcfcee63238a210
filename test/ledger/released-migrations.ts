/**
 * PostgreSQL's migrations as released, copied out of git history
 * (src/ledger/postgres/migrations.ts at commit
 * 5f83cb54299d7babf535b0605d653dd7fdd868e4): what a database an older
 * reagent-flow migrated holds. Never edit them: they are the past the
 * current code must keep working on.
 */
export const RELEASED_MIGRATION_1 = `CREATE TABLE reagent_ledger_runs (
     org text NOT NULL,
     namespace text NOT NULL,
     run_id text NOT NULL,
     agent text NOT NULL,
     user_id text NOT NULL,
     session_id text NOT NULL,
     goal text NOT NULL,
     user_request text NOT NULL,
     expected_outcome text NOT NULL,
     environment text NOT NULL,
     model text NOT NULL,
     consumer text NOT NULL,
     status text NOT NULL CHECK (status IN ('active', 'completed', 'failed', 'cancelled')),
     started_at double precision NOT NULL,
     completed_at double precision,
     duration_ms bigint NOT NULL,
     final_response text NOT NULL,
     confidence double precision NOT NULL,
     grade text CHECK (grade IN ('pass', 'fail')),
     grade_source text,
     grade_reason text,
     grade_ref text,
     graded_at double precision,
     memories_used jsonb NOT NULL,
     relied_on integer NOT NULL,
     metadata jsonb NOT NULL,
     budget_usd double precision NOT NULL,
     budget_seconds bigint NOT NULL,
     usage jsonb,
     search_text text NOT NULL,
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
   );`

export const RELEASED_MIGRATION_2 = `CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX reagent_ledger_runs_search ON reagent_ledger_runs USING gin (search_text gin_trgm_ops);`
