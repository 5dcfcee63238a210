/**
 * The statements that read one run by its id, over the runs partitioned by
 * month (partitions.ts): a lookup by id reads its started_at from the key
 * table so that only the partition of its month is read. (Writes go in
 * batches: write-sql.ts.)
 */

// started_at from a sub-select (an InitPlan), not a join: its value is known when the executor starts, which then
// skips every other month's partition (a join would probe each month's primary key, the planner seeing run_id alone).
const BY_KEY =
  'SELECT * FROM reagent_ledger_runs WHERE org = $1 AND namespace = $2 AND run_id = $3 ' +
  'AND started_at = (SELECT started_at FROM reagent_ledger_run_keys WHERE org = $1 AND namespace = $2 AND run_id = $3)'

/** The run with this id ($1 org, $2 namespace, $3 run_id). */
export const SELECT_RUN = BY_KEY

/** The same, its row locked until the transaction ends. */
export const SELECT_RUN_FOR_UPDATE = `${BY_KEY} FOR UPDATE`
