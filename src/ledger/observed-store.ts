/**
 * A store as the server watches it: each call that fails is counted by
 * operation (the metrics' store errors), and the store going away or coming
 * back is one line of log each, not one per request: the first call (or
 * readiness probe) that finds it unreachable logs `store_lost`, the first that
 * succeeds after that logs `store_reconnected`.
 */
import type { ServerLog } from '../server/server-log.js'
import type { Scope } from './identity.js'
import type { ListPage, ListQuery } from './list-query.js'
import type { RunRecord } from './run-row.js'
import type { StatsCell, StatsQuery } from './stats-query.js'
import type { BeginInput, CompleteInput, GradeVerdict } from './checked-input.js'
import type { RunResults } from '../results/types.js'
import type { Trace } from '../trace/types.js'
import { StoreUnavailableError, WriteQueueFullError } from './errors.js'
import type { KeyClaim, Replayed } from './idempotency.js'
import type { WriteQueueView } from './write-queue.js'
import type { BeginOutcome, CompleteOutcome, GradeOutcome, GradeTarget, LedgerStore, PruneOutcome, PrunePolicy, StorePool, TraceStored } from './store.js'

export type StoreErrorKind = 'unavailable' | 'internal'

export interface StoreWatch {
  log: ServerLog
  /** A call of `operation` failed. */
  onError?: (operation: string, kind: StoreErrorKind) => void
}

export class ObservedStore implements LedgerStore {
  readonly kind: string
  readonly location: string
  readonly pool: (() => StorePool) | undefined
  readonly writeQueue: WriteQueueView | undefined
  readonly #store: LedgerStore
  readonly #watch: StoreWatch
  #lost = false

  constructor(store: LedgerStore, watch: StoreWatch) {
    this.#store = store
    this.#watch = watch
    this.kind = store.kind
    this.location = store.location
    this.pool = store.pool === undefined ? undefined : () => store.pool!()
    this.writeQueue = store.writeQueue
  }

  async #call<T>(operation: string, work: () => Promise<T>): Promise<T> {
    let result: T
    try {
      result = await work()
    } catch (error) {
      // A full write queue is the store busy, not failing: reagent_ledger_write_rejected_total counts it.
      if (error instanceof WriteQueueFullError) throw error
      const unavailable = error instanceof StoreUnavailableError
      this.#watch.onError?.(operation, unavailable ? 'unavailable' : 'internal')
      if (unavailable && !this.#lost) {
        this.#lost = true
        this.#watch.log.event('warn', 'store_lost', `${error.message}; calls are answered 503 until it is back`, { store: this.kind, operation })
      }
      throw error
    }
    if (this.#lost) {
      this.#lost = false
      this.#watch.log.event('info', 'store_reconnected', `the ${this.kind} store is back`, { store: this.kind, operation })
    }
    return result
  }

  begin(input: BeginInput, runId: string, now: number, key?: KeyClaim<BeginOutcome>): Promise<BeginOutcome | Replayed> {
    return this.#call('begin', () => this.#store.begin(input, runId, now, key))
  }

  complete(scope: Scope, input: CompleteInput, now: number, key?: KeyClaim<CompleteOutcome>): Promise<CompleteOutcome | Replayed> {
    return this.#call('complete', () => this.#store.complete(scope, input, now, key))
  }

  get(scope: Scope, runId: string): Promise<RunRecord | undefined> {
    return this.#call('get', () => this.#store.get(scope, runId))
  }

  grade(scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome> {
    return this.#call('grade', () => this.#store.grade(scope, target, verdict, now))
  }

  list(query: ListQuery, scope: Scope): Promise<ListPage> {
    return this.#call('list', () => this.#store.list(query, scope))
  }

  stats(query: StatsQuery, scope: Scope): Promise<StatsCell[]> {
    return this.#call('stats', () => this.#store.stats(query, scope))
  }

  putTrace(scope: Scope, runId: string, trace: Trace): Promise<TraceStored | undefined> {
    return this.#call('put_trace', () => this.#store.putTrace(scope, runId, trace))
  }

  getTrace(scope: Scope, runId: string): Promise<Trace | null | undefined> {
    return this.#call('get_trace', () => this.#store.getTrace(scope, runId))
  }

  putResults(scope: Scope, resultsId: string, results: RunResults, now: number): Promise<boolean> {
    return this.#call('put_results', () => this.#store.putResults(scope, resultsId, results, now))
  }

  listResults(scope: Scope, branch: string | undefined, limit: number): Promise<RunResults[]> {
    return this.#call('list_results', () => this.#store.listResults(scope, branch, limit))
  }

  prune(scope: Scope, policy: PrunePolicy, now: number): Promise<PruneOutcome> {
    return this.#call('prune', () => this.#store.prune(scope, policy, now))
  }

  ping(timeoutMs: number): Promise<void> {
    return this.#call('ping', () => this.#store.ping(timeoutMs))
  }

  close(): Promise<void> {
    return this.#store.close()
  }
}
