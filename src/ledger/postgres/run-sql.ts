/**
 * The statements that write or read one run by its id, over the runs
 * partitioned by month (partitions.ts): a run goes in with its key in one
 * statement, and a lookup by id reads its started_at from the key table so
 * that only the partition of its month is read.
 */
import { placeholders, RUN_COLUMNS } from './run-columns.js'

/** The runs' columns begin with org, namespace and run_id, so $1, $2 and $3 are those of every statement here. */
const STARTED_AT = `$${RUN_COLUMNS.indexOf('started_at') + 1}`

/** Opens a run: its key and its row, or neither (and no row returned) when the id is taken. */
export const INSERT_RUN =
  `WITH run_key AS (INSERT INTO reagent_ledger_run_keys (org, namespace, run_id, started_at) VALUES ($1, $2, $3, ${STARTED_AT}) ` +
  'ON CONFLICT (org, namespace, run_id) DO NOTHING RETURNING 1) ' +
  `INSERT INTO reagent_ledger_runs (${RUN_COLUMNS.join(', ')}) SELECT ${placeholders()} FROM run_key RETURNING *`

/** Rewrites a run; the values are its own, started_at included (it never changes), which picks the partition. */
export const UPDATE_RUN = `UPDATE reagent_ledger_runs SET (${RUN_COLUMNS.join(', ')}) = ROW(${placeholders()}) WHERE org = $1 AND namespace = $2 AND run_id = $3 AND started_at = ${STARTED_AT}`

// started_at from a sub-select (an InitPlan), not a join: its value is known when the executor starts, which then
// skips every other month's partition (a join would probe each month's primary key, the planner seeing run_id alone).
const BY_KEY =
  'SELECT * FROM reagent_ledger_runs WHERE org = $1 AND namespace = $2 AND run_id = $3 ' +
  'AND started_at = (SELECT started_at FROM reagent_ledger_run_keys WHERE org = $1 AND namespace = $2 AND run_id = $3)'

/** The run with this id ($1 org, $2 namespace, $3 run_id). */
export const SELECT_RUN = BY_KEY

/** The same, its row locked until the transaction ends. */
export const SELECT_RUN_FOR_UPDATE = `${BY_KEY} FOR UPDATE`
