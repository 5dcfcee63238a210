/**
 * The statements of the PostgreSQL store's write batches (write-batch.ts),
 * in one place: each takes a whole batch as one JSON array parameter, read
 * into rows of the runs table's own type (`jsonb_populate_recordset`), so a
 * batch of any size is one statement, one round trip and one plan, prepared
 * once per connection (a named statement).
 *
 * INSERT_RUNS is the one statement of a batch that inserts runs.
 */
import { RUN_COLUMNS } from './run-columns.js'

const COLUMNS = RUN_COLUMNS.join(', ')
const FROM_BATCH = 'jsonb_populate_recordset(NULL::reagent_ledger_runs, $1::jsonb)'

export interface NamedStatement {
  name: string
  text: string
}

/**
 * Runs opened by a batch of begins, each once, with their keys (the key table keeps run ids unique across the
 * months' partitions, decision 082): a run whose id is taken gets neither; RETURNING the ids that were new.
 */
export const INSERT_RUNS: NamedStatement = {
  name: 'reagent_insert_runs',
  text: `WITH batch AS (SELECT * FROM ${FROM_BATCH}),
         new_keys AS (INSERT INTO reagent_ledger_run_keys (org, namespace, run_id, started_at) SELECT org, namespace, run_id, started_at FROM batch
                      ON CONFLICT (org, namespace, run_id) DO NOTHING RETURNING org, namespace, run_id)
         INSERT INTO reagent_ledger_runs (${COLUMNS}) SELECT ${RUN_COLUMNS.map((column) => `b.${column}`).join(', ')} FROM batch b JOIN new_keys USING (org, namespace, run_id)
         RETURNING org, namespace, run_id`,
}

/**
 * The runs a batch changes, locked in one order (org, namespace, run id): two batches locking the same runs cannot
 * deadlock. Found through their keys: each run's started_at leads to its month's partition alone.
 */
export const LOCK_RUNS: NamedStatement = {
  name: 'reagent_lock_runs',
  text: `SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS k(org text, namespace text, run_id text)
         JOIN reagent_ledger_run_keys rk USING (org, namespace, run_id)
         JOIN reagent_ledger_runs r ON r.org = rk.org AND r.namespace = rk.namespace AND r.run_id = rk.run_id AND r.started_at = rk.started_at
         ORDER BY r.org COLLATE "C", r.namespace COLLATE "C", r.run_id COLLATE "C" FOR UPDATE OF r`,
}

/** Every changed run of a batch, written whole, once. */
export const UPDATE_RUNS: NamedStatement = {
  name: 'reagent_update_runs',
  text: `UPDATE reagent_ledger_runs r SET (${COLUMNS}) = (${RUN_COLUMNS.map((column) => `x.${column}`).join(', ')})
         FROM ${FROM_BATCH} x WHERE r.org = x.org AND r.namespace = x.namespace AND r.run_id = x.run_id AND r.started_at = x.started_at`,
}

/** The table of idempotency keys (a migration of its own). */
export const KEYS_TABLE = `CREATE TABLE reagent_ledger_idempotency (
     org text NOT NULL,
     namespace text NOT NULL,
     operation text NOT NULL,
     idem_key text NOT NULL,
     fingerprint text NOT NULL,
     answer jsonb NOT NULL,
     stored_at double precision NOT NULL,
     PRIMARY KEY (org, namespace, operation, idem_key)
   );
   CREATE INDEX reagent_ledger_idempotency_stored ON reagent_ledger_idempotency (stored_at);`

/** The answers kept under a batch's keys, when kept after $2 (epoch seconds). */
export const RECALL_KEYS: NamedStatement = {
  name: 'reagent_recall_keys',
  text: `SELECT i.org, i.namespace, i.operation, i.idem_key, i.fingerprint, i.answer, i.stored_at FROM reagent_ledger_idempotency i
         JOIN jsonb_to_recordset($1::jsonb) AS k(org text, namespace text, operation text, idem_key text) USING (org, namespace, operation, idem_key)
         WHERE i.stored_at > $2`,
}

/**
 * A batch's keys with their answers; RETURNING the ones kept. A key another
 * server kept meanwhile is not returned: the batch is rolled back and its
 * writes tried one by one, which then find that answer. An expired key is
 * taken over.
 */
export const KEEP_KEYS: NamedStatement = {
  name: 'reagent_keep_keys',
  text: `INSERT INTO reagent_ledger_idempotency (org, namespace, operation, idem_key, fingerprint, answer, stored_at)
         SELECT org, namespace, operation, idem_key, fingerprint, answer, stored_at
         FROM jsonb_to_recordset($1::jsonb) AS k(org text, namespace text, operation text, idem_key text, fingerprint text, answer jsonb, stored_at double precision)
         ON CONFLICT (org, namespace, operation, idem_key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, answer = EXCLUDED.answer, stored_at = EXCLUDED.stored_at
           WHERE reagent_ledger_idempotency.stored_at <= $2
         RETURNING idem_key`,
}

/** Keys past their time (epoch seconds $1). */
export const SWEEP_KEYS = 'DELETE FROM reagent_ledger_idempotency WHERE stored_at <= $1'
