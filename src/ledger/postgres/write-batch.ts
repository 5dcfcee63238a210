/**
 * A batch of writes (begin, complete, grade) applied in one PostgreSQL
 * transaction, with the rules of run-rules.ts, each write getting the answer
 * it would get alone, in the order the batch holds them: the begins, whose
 * new runs are one multi-row INSERT; then the completes, whose runs are
 * locked by one SELECT ... FOR UPDATE and written by one UPDATE; then the
 * grades, one by one. A batch without keys, of begins and completes of
 * distinct runs, is five round trips (BEGIN, INSERT, SELECT, UPDATE, COMMIT)
 * whatever its size; keys add two (their recall and their keeping).
 */
import type pg from 'pg'
import type { CompleteInput } from '../checked-input.js'
import { isVisible, type Scope } from '../identity.js'
import { IDEMPOTENCY_KEY_TTL_SECONDS, type KeptAnswer, type KeyClaim } from '../idempotency.js'
import type { RunRecord } from '../run-row.js'
import { completedRun, gradeAction, gradedRun, openedRun, rebegin } from '../run-rules.js'
import type { BeginOutcome, CompleteOutcome, GradeOutcome, GradeTarget } from '../store.js'
import { keyScopeOf, type StoreWrite, type StoreWriteResult } from '../store-writes.js'
import type { GradeVerdict } from '../checked-input.js'
import { columnsOf, recordOf, type RunRow } from './run-columns.js'
import { SELECT_RUN_FOR_UPDATE } from './run-sql.js'
import { INSERT_RUNS, KEEP_KEYS, LOCK_RUNS, RECALL_KEYS, UPDATE_RUNS, type NamedStatement } from './write-sql.js'

type Client = pg.PoolClient

const runKey = (org: string, namespace: string, runId: string): string => `${org}\u0000${namespace}\u0000${runId}`
const callKey = (org: string, namespace: string, operation: string, key: string): string => `${org}\u0000${namespace}\u0000${operation}\u0000${key}`

/** Runs in (org, namespace, run_id) order by code unit, the order every batch inserts in (a different order only costs a deadlock and a retry one by one). */
function byKey(a: RunRecord, b: RunRecord): number {
  const left = runKey(a.org, a.namespace, a.run_id)
  const right = runKey(b.org, b.namespace, b.run_id)
  return left < right ? -1 : left > right ? 1 : 0
}

function run<R extends pg.QueryResultRow>(client: Client, statement: NamedStatement, values: unknown[]): Promise<pg.QueryResult<R>> {
  return client.query<R>({ name: statement.name, text: statement.text, values })
}

export async function lockedRun(client: Client, org: string, namespace: string, runId: string): Promise<RunRecord | undefined> {
  const { rows } = await client.query<RunRow>({ name: 'reagent_lock_run', text: SELECT_RUN_FOR_UPDATE, values: [org, namespace, runId] })
  return rows[0] === undefined ? undefined : recordOf(rows[0])
}

export async function updateRun(client: Client, next: RunRecord): Promise<void> {
  await run(client, UPDATE_RUNS, [JSON.stringify([columnsOf(next)])])
}

/** What a batch did: each write's result, and whether a key was kept by another server meanwhile (the batch must then be rolled back). */
export interface BatchOutcome {
  results: StoreWriteResult[]
  raced: boolean
}

/** The answers kept under the batch's keys, by callKey. */
async function recallKeys(client: Client, writes: readonly StoreWrite[], now: number): Promise<Map<string, KeptAnswer>> {
  const asked = writes.flatMap((write) => {
    if (write.op === 'grade' || write.key === undefined) return []
    const { org, namespace } = keyScopeOf(write)
    return [{ org, namespace, operation: write.key.operation, idem_key: write.key.key }]
  })
  const kept = new Map<string, KeptAnswer>()
  if (asked.length === 0) return kept
  type KeyRow = { org: string; namespace: string; operation: string; idem_key: string; fingerprint: string; answer: object; stored_at: number }
  const { rows } = await run<KeyRow>(client, RECALL_KEYS, [JSON.stringify(asked), now - IDEMPOTENCY_KEY_TTL_SECONDS])
  for (const row of rows) {
    kept.set(callKey(row.org, row.namespace, row.operation, row.idem_key), { fingerprint: row.fingerprint, answer: row.answer, stored_at: row.stored_at })
  }
  return kept
}

async function rebeginOne(client: Client, write: Extract<StoreWrite, { op: 'begin' }>): Promise<BeginOutcome> {
  const { input, runId } = write
  const found = (await lockedRun(client, input.org, input.namespace, runId))!
  const next = rebegin(found, input)
  if (next.kind === 'conflict') return { kind: 'conflict', run: found, field: next.field }
  if (next.kind === 'unchanged') return { kind: 'existing', run: found }
  await updateRun(client, next.run)
  return { kind: 'existing', run: next.run }
}

/** run.complete's step on a run as the batch holds it. */
export function completeStep(found: RunRecord | undefined, scope: Scope, input: CompleteInput, now: number): CompleteOutcome {
  if (found === undefined || !isVisible(scope, found)) return { kind: 'not_found' }
  if ((input.user_id !== '-' && found.user_id !== input.user_id) || (input.session_id !== '-' && found.session_id !== input.session_id)) {
    return { kind: 'not_found' }
  }
  if (found.status !== 'active') return { kind: 'closed', run: found }
  return { kind: 'completed', run: completedRun(found, input, now) }
}

export async function gradeOne(client: Client, scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome> {
  // Locked oldest first, the order every grade takes its rows in: two grades of one session cannot deadlock.
  // One run by its key (its month's partition alone), or a session's runs (every month's session index).
  const { rows } =
    target.session_id === undefined
      ? await client.query<RunRow>({ name: 'reagent_lock_run', text: SELECT_RUN_FOR_UPDATE, values: [scope.org, scope.namespace, target.run_id] })
      : await client.query<RunRow>({
          name: 'reagent_lock_grade',
          text: `SELECT * FROM reagent_ledger_runs WHERE org = $1 AND namespace = $2 AND (run_id = $3 OR session_id = $4)
                 ORDER BY started_at, run_id COLLATE "C" FOR UPDATE`,
          values: [scope.org, scope.namespace, target.run_id ?? null, target.session_id],
        })
  const runs = rows.map(recordOf).filter((found) => isVisible(scope, found))
  if (target.run_id !== undefined && !runs.some((found) => found.run_id === target.run_id)) {
    return { graded: [], skippedActive: 0, unchanged: 0, runNotFound: true }
  }
  const outcome: GradeOutcome = { graded: [], skippedActive: 0, unchanged: 0, runNotFound: false }
  const changed: RunRecord[] = []
  for (const found of runs) {
    const action = gradeAction(found, verdict)
    if (action === 'skip_active') outcome.skippedActive += 1
    else if (action === 'unchanged') outcome.unchanged += 1
    else {
      const graded = gradedRun(found, verdict, now)
      changed.push(graded)
      outcome.graded.push(graded)
    }
  }
  if (changed.length > 0) await run(client, UPDATE_RUNS, [JSON.stringify(changed.map(columnsOf))])
  return outcome
}

/** Applies `writes` on `client`, inside a transaction the caller opened and commits (or rolls back when `raced`). */
export async function applyBatch(client: Client, writes: readonly StoreWrite[]): Promise<BatchOutcome> {
  const now = Math.max(...writes.map((write) => write.now))
  const results: Array<StoreWriteResult | undefined> = writes.map(() => undefined)
  const kept = await recallKeys(client, writes, now)
  writes.forEach((write, i) => {
    if (write.op === 'grade' || write.key === undefined) return
    const { org, namespace } = keyScopeOf(write)
    const answer = kept.get(callKey(org, namespace, write.key.operation, write.key.key))
    if (answer !== undefined) results[i] = { kind: 'replayed', kept: answer }
  })

  // Begins: the first begin of each new run id is one row of one INSERT; the others find their run and apply rebegin.
  const opened = new Map<number, RunRecord>()
  const firsts = new Set<string>()
  writes.forEach((write, i) => {
    if (write.op !== 'begin' || results[i] !== undefined) return
    const key = runKey(write.input.org, write.input.namespace, write.runId)
    if (firsts.has(key)) return
    firsts.add(key)
    opened.set(i, openedRun(write.input, write.runId, write.now))
  })
  const inserted = new Set<string>()
  if (opened.size > 0) {
    // In key order, as every batch inserts: two servers inserting the same new ids wait for each other in one order, never in a cycle.
    const ordered = [...opened.values()].sort(byKey).map(columnsOf)
    const { rows } = await run<{ org: string; namespace: string; run_id: string }>(client, INSERT_RUNS, [JSON.stringify(ordered)])
    for (const row of rows) inserted.add(runKey(row.org, row.namespace, row.run_id))
  }
  for (const [i, write] of writes.entries()) {
    if (write.op !== 'begin' || results[i] !== undefined) continue
    const first = opened.get(i)
    // A run id is new or not for the whole batch: the INSERT reports the ids it wrote.
    if (first !== undefined && inserted.has(runKey(write.input.org, write.input.namespace, write.runId))) results[i] = { kind: 'opened', run: first }
    else results[i] = await rebeginOne(client, write)
  }

  // Completes: their runs locked at once, the rules applied in order, each changed run written once.
  const toLock = new Map<string, { org: string; namespace: string; run_id: string }>()
  for (const [i, write] of writes.entries()) {
    if (write.op !== 'complete' || results[i] !== undefined) continue
    const { org, namespace } = write.scope
    toLock.set(runKey(org, namespace, write.input.run_id), { org, namespace, run_id: write.input.run_id })
  }
  if (toLock.size > 0) {
    const { rows } = await run<RunRow>(client, LOCK_RUNS, [JSON.stringify([...toLock.values()])])
    const current = new Map(rows.map((row) => [runKey(String(row.org), String(row.namespace), String(row.run_id)), recordOf(row)]))
    const changed = new Map<string, RunRecord>()
    for (const [i, write] of writes.entries()) {
      if (write.op !== 'complete' || results[i] !== undefined) continue
      const key = runKey(write.scope.org, write.scope.namespace, write.input.run_id)
      const outcome = completeStep(current.get(key), write.scope, write.input, write.now)
      if (outcome.kind === 'completed') {
        current.set(key, outcome.run)
        changed.set(key, outcome.run)
      }
      results[i] = outcome
    }
    if (changed.size > 0) await run(client, UPDATE_RUNS, [JSON.stringify([...changed.values()].map(columnsOf))])
  }

  for (const [i, write] of writes.entries()) {
    if (write.op === 'grade') results[i] = await gradeOne(client, write.scope, write.target, write.verdict, write.now)
  }

  const done = results as StoreWriteResult[]
  const toKeep = writes.flatMap((write, i) => {
    const result = done[i]!
    if (write.op === 'grade' || write.key === undefined || (result as { kind?: string }).kind === 'replayed') return []
    const answer = (write.key as KeyClaim<typeof result>).answer(result)
    if (answer === undefined) return []
    const { org, namespace } = keyScopeOf(write)
    return [{ org, namespace, operation: write.key.operation, idem_key: write.key.key, fingerprint: write.key.fingerprint, answer, stored_at: write.now }]
  })
  let raced = false
  if (toKeep.length > 0) {
    const { rowCount } = await run(client, KEEP_KEYS, [JSON.stringify(toKeep), now - IDEMPOTENCY_KEY_TTL_SECONDS])
    raced = rowCount !== toKeep.length
  }
  return { results: done, raced }
}
