/**
 * Where a ledger keeps its runs: the trace directory (directory/) or
 * PostgreSQL (postgres/). A store gives each operation its atomic step, with
 * the rules of run-rules.ts; the service (service.ts) owns everything else
 * (identity, validation, defaults, outputs). Both pass one conformance suite
 * (test/ledger/conformance/).
 */
import type { RunResults } from '../results/types.js'
import type { Trace } from '../trace/types.js'
import type { Scope } from './identity.js'
import type { ListPage, ListQuery } from './list-query.js'
import type { RunRecord } from './run-row.js'
import type { StatsCell, StatsQuery } from './stats-query.js'
import type { BeginInput, CompleteInput, GradeVerdict } from './checked-input.js'
import type { KeyClaim, Replayed } from './idempotency.js'
import type { WriteQueueView } from './write-queue.js'

export type BeginOutcome =
  | { kind: 'opened'; run: RunRecord }
  /** A re-sent begin: the run as it is now (see rebegin). */
  | { kind: 'existing'; run: RunRecord }
  | { kind: 'conflict'; run: RunRecord; field: 'agent' | 'user_id' | 'session_id' }

export type CompleteOutcome = { kind: 'completed'; run: RunRecord } | { kind: 'closed'; run: RunRecord } | { kind: 'not_found' }

export interface GradeTarget {
  run_id?: string
  session_id?: string
}

export interface GradeOutcome {
  /** Runs whose grade was written, oldest first. */
  graded: RunRecord[]
  skippedActive: number
  unchanged: number
  /** The run_id asked for is not in the scope. */
  runNotFound: boolean
}

/** H3 owns. Cut-off and rules of a prune; every run older than `before` is removed unless a rule keeps it. */
export interface PrunePolicy {
  /** Epoch seconds: runs that started before it are candidates. */
  before: number
  /** Keep runs that ended failed or were graded fail. */
  keepFailed: boolean
  /** Keep the newest N runs of each agent, whatever their age. */
  keepLastPerAgent: number
  /** Count only, remove nothing. */
  dryRun: boolean
}

export interface PruneOutcome {
  removed: number
  /** Why candidates were kept. `last`: the newest run(s) of an agent (always at least 1). `baseline`: referenced by a results file the ledger keeps as a branch's latest results. */
  kept: { failed: number; last: number; baseline: number; active: number }
  /** PostgreSQL: whole partitions dropped (0 on the directory store). */
  partitionsDropped: number
}

/** What trace.put kept: the trace's turns, its size as JSON text, and the bytes the store keeps for it (gzip on PostgreSQL, the run's file on the directory store). */
export interface TraceStored {
  turns: number
  bytes: number
  stored_bytes: number
}

/** A store's connection pool, for the metrics: connections open, idle among them, and calls waiting for one. */
export interface StorePool {
  total: number
  idle: number
  waiting: number
}

export interface LedgerStore {
  /** `directory` or `postgres`, for logs. */
  readonly kind: string
  /** Where, for the start-up line: the directory, or the URL without its password. */
  readonly location: string
  /**
   * Opens the run, or applies a re-sent begin to the one with this id (`runId` is minted by the service when the call gave none).
   * With `key`: `replayed` when the store keeps an answer under it, else the key is kept with the write (idempotency.ts).
   */
  begin(input: BeginInput, runId: string, now: number, key?: KeyClaim<BeginOutcome>): Promise<BeginOutcome | Replayed>
  complete(scope: Scope, input: CompleteInput, now: number, key?: KeyClaim<CompleteOutcome>): Promise<CompleteOutcome | Replayed>
  /** The run with its usage (what its trace used), or undefined when it is not in the scope. */
  get(scope: Scope, runId: string): Promise<RunRecord | undefined>
  grade(scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome>
  list(query: ListQuery, scope: Scope): Promise<ListPage>
  /** run.stats: the cells of the runs in `query`'s window and the scope, ordered by key (byte order), then bucket (see stats-query.ts). */
  stats(query: StatsQuery, scope: Scope): Promise<StatsCell[]>
  /** Keeps `trace` (already checked and redacted) as the run's trace; undefined when the run is not in the scope. */
  putTrace(scope: Scope, runId: string, trace: Trace): Promise<TraceStored | undefined>
  /** The run's trace (null when it has none), or undefined when the run is not in the scope. */
  getTrace(scope: Scope, runId: string): Promise<Trace | null | undefined>
  /** Keeps `results` (already checked) under `resultsId` in the scope's namespace; false when they were kept already (nothing changes). */
  putResults(scope: Scope, resultsId: string, results: RunResults, now: number): Promise<boolean>
  /** The namespace's results of `branch` (every branch when undefined), newest first by started_at (then results id, descending), at most `limit`. */
  listResults(scope: Scope, branch: string | undefined, limit: number): Promise<RunResults[]>
  /**
   * Removes the scope's runs (with their traces) that started before
   * `policy.before`, except active runs and those a rule keeps (see
   * prune-plan.ts); `now` is the server's clock, for the log. Counts only when
   * `policy.dryRun`.
   */
  prune(scope: Scope, policy: PrunePolicy, now: number): Promise<PruneOutcome>
  /** Resolves when the store can be reached (within `timeoutMs`), throws StoreUnavailableError when not: `/readyz`. Cheap: probes call it every few seconds. */
  ping(timeoutMs: number): Promise<void>
  /** Where begin, complete and grade wait to be written together (write-queue.ts). */
  readonly writeQueue?: WriteQueueView | undefined
  /** The connection pool's use, for a store that has one. */
  readonly pool?: (() => StorePool) | undefined
  /** Waits for pending writes and lets go of files, watchers and connections. */
  close(): Promise<void>
}
