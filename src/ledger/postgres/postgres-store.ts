/**
 * PostgreSQL as a ledger store, for teams whose tests run on many machines:
 * several servers share one database. Writes (begin, complete, grade) wait
 * in a bounded queue (write-queue.ts) and go in batches, each batch one
 * transaction (write-batch.ts) that locks the rows it reads (`SELECT ... FOR
 * UPDATE`) before applying the rules of run-rules.ts, so concurrent begin,
 * complete and grade from any number of servers lose nothing and complete a
 * run once, at the cost of one commit per batch. Traces from trace.put are kept
 * gzip-compressed beside the run, with their usage summary on the run row.
 * Runs and traces live in partitions by month (partitions.ts): a run is
 * found by id through the key table (run-sql.ts), and a prune drops whole
 * months where it can (prune-sql.ts).
 *
 * PostgreSQL restarting, down or out of connections is an answer, never a
 * crash: every connection, idle or checked out, has an `error` listener (a
 * connection the server terminates between two queries of a transaction
 * emits one), a broken connection is destroyed rather than pooled again,
 * and every failure of the connection is thrown as StoreUnavailableError.
 */
import { availableParallelism } from 'node:os'
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'
import pg from 'pg'
import type { RunResults } from '../../results/types.js'
import type { Trace } from '../../trace/types.js'
import { ReagentError } from '../../errors/reagent-error.js'
import { StoreUnavailableError } from '../errors.js'
import { IDEMPOTENCY_KEY_TTL_SECONDS, type KeyClaim, type Replayed } from '../idempotency.js'
import { DEFAULT_WRITE_QUEUE, WriteQueue, type BatchResult, type WriteQueueView } from '../write-queue.js'
import type { StoreWrite, StoreWriteResult } from '../store-writes.js'
import { isVisible, type Scope } from '../identity.js'
import { skipsTotal, type ListPage, type ListQuery } from '../list-query.js'
import type { RunRecord } from '../run-row.js'
import { compareCells, type StatsCell, type StatsQuery } from '../stats-query.js'
import type { BeginInput, CompleteInput, GradeVerdict } from '../checked-input.js'
import type { BeginOutcome, CompleteOutcome, GradeOutcome, GradeTarget, LedgerStore, PruneOutcome, PrunePolicy, StorePool, TraceStored } from '../store.js'
import { summarizeUsage } from '../usage-summary.js'
import { listSql } from './list-sql.js'
import { StatsCache } from './stats-cache.js'
import { migrate } from './migrations.js'
import { MonthPartitions } from './partitions.js'
import { prunePostgres } from './prune-sql.js'
import { recordOf, type RunRow } from './run-columns.js'
import { SELECT_RUN } from './run-sql.js'
import { applyBatch, lockedRun, updateRun } from './write-batch.js'
import { SWEEP_KEYS } from './write-sql.js'

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** How often keys past their time are deleted, in seconds. */
const KEY_SWEEP_SECONDS = 600

/** Thrown inside a batch's transaction to roll it back: a key was kept by another server meanwhile (see write-batch.ts). */
class KeyRaced extends ReagentError {
  override name = 'KeyRaced' as const
  constructor() {
    super('an idempotency key of the batch was kept by another server meanwhile; the batch is rolled back and its writes tried one by one')
  }
}

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string
  /** Connections in the pool. Default: defaultPoolSize(). */
  maxConnections?: number
  /** Writes that may wait for a batch (`serve --write-queue`). Default: DEFAULT_WRITE_QUEUE. */
  writeQueue?: number
}

/**
 * Connections in the pool by default: four per CPU core, at least 8 and at
 * most 32. Writes go in batches (a few connections carry them all); the rest
 * serve reads. Several servers on one database share its max_connections
 * (100 by default): 32 leaves room for three.
 */
export function defaultPoolSize(): number {
  return Math.min(32, Math.max(8, 4 * availableParallelism()))
}

/** Batches being committed at once: while some commit, the next gathers the writes that arrive. */
function writeConcurrency(poolSize: number): number {
  return Math.max(2, Math.min(4, Math.floor(poolSize / 4)))
}

/** Writes in one batch at most: one JSON parameter per statement, a few hundred KB. */
const MAX_BATCH = 256

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://(unparsable URL)'
  }
}

/** SQLSTATE classes of a connection that failed or a server that is going away or not yet back: 08 connection exception, 53 insufficient resources, 57P operator intervention (shutdown, crash, starting up). */
const UNAVAILABLE_STATE = /^(08|53|57P)/
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
/** What node-postgres throws, without a code, when the connection ends under a query or cannot be had in time. */
const UNAVAILABLE_MESSAGE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended)/

/** Whether `error` is PostgreSQL (or the way to it) failing, rather than the call. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return UNAVAILABLE_STATE.test(code) || UNAVAILABLE_SOCKET.has(code)
  return UNAVAILABLE_MESSAGE.test(error.message)
}

/** How long a call waits for a free connection before it is answered as unavailable. */
const CONNECT_TIMEOUT_MS = 10_000

export class PostgresStore implements LedgerStore {
  readonly kind = 'postgres'
  readonly location: string
  readonly #pool: pg.Pool
  readonly #url: string
  /** A connection of its own for ping(): a probe must not wait behind the calls queued for the pool, nor take one of its connections. */
  #probe: pg.Client | undefined
  /** The months known to have partitions (partitions.ts). */
  readonly #months = new MonthPartitions()
  /** run.stats's closed buckets, kept in the database (decision 087). */
  readonly #statsCache = new StatsCache()

  readonly #writes: WriteQueue<StoreWrite, StoreWriteResult>
  #sweptAt = Number.NEGATIVE_INFINITY

  private constructor(pool: pg.Pool, url: string, poolSize: number, queue: number) {
    this.#pool = pool
    this.#url = url
    this.location = redactUrl(url)
    this.#writes = new WriteQueue((writes) => this.#flush(writes), { capacity: queue, maxBatch: MAX_BATCH, concurrency: writeConcurrency(poolSize) })
  }

  get writeQueue(): WriteQueueView {
    return this.#writes
  }

  /** Connects and applies the migrations the database has not seen. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const poolSize = options.maxConnections ?? defaultPoolSize()
    const pool = new pg.Pool({ connectionString: options.url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
    // An idle connection the server dropped must not crash the process: the pool replaces it.
    pool.on('error', () => {})
    // Nor a second error on one connection: pg-pool's idle listener removes itself at the first (a restart
    // sends FATAL 57P01, then the socket ends), and an 'error' with no listener kills the process. Every
    // connection keeps a listener of its own for its whole life; a failure still reaches the call that
    // uses the connection, as its query's error (a 503 with Retry-After), and the pool drops it.
    pool.on('connect', (client) => {
      client.on('error', () => {})
    })
    let store: PostgresStore
    try {
      const client = await pool.connect()
      try {
        await migrate(client)
      } finally {
        client.release()
      }
      store = new PostgresStore(pool, options.url, poolSize, options.writeQueue ?? DEFAULT_WRITE_QUEUE)
      // This month's partitions and the next one's, ahead of the runs that go in them.
      const now = Date.now() / 1000
      await store.#months.ensure(pool, now)
      await store.#months.ensure(pool, now + 32 * 86_400)
    } catch (error) {
      await pool.end()
      throw error
    }
    return store
  }

  /** `work`, with a failure of PostgreSQL thrown as StoreUnavailableError. */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw isConnectionFailure(error) ? new StoreUnavailableError(this.kind, error) : error
    }
  }

  #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.#guard(() => this.#pool.query<R>(text, values))
  }

  /** `work` in a transaction, committed unless `commits` says otherwise (then rolled back, and KeyRaced thrown). */
  #transaction<T>(work: (client: pg.PoolClient) => Promise<T>, commits: (result: T) => boolean = () => true): Promise<T> {
    return this.#guard(async () => {
      const client = await this.#pool.connect()
      // Checked out, a client has no listener of the pool's: one the server terminates between two queries would crash the process.
      let broken: Error | undefined
      const onError = (error: Error): void => {
        broken = error
      }
      client.on('error', onError)
      try {
        await client.query('BEGIN')
        const result = await work(client)
        if (!commits(result)) throw new KeyRaced()
        await client.query('COMMIT')
        return result
      } catch (error) {
        if (broken === undefined && !isConnectionFailure(error)) {
          await client.query('ROLLBACK').catch((rollback: Error) => {
            broken = rollback
          })
        } else broken ??= error as Error
        throw error
      } finally {
        client.off('error', onError)
        // A broken connection is destroyed, not handed to the next call.
        client.release(broken)
      }
    })
  }

  async #locked(client: pg.PoolClient, org: string, namespace: string, runId: string): Promise<RunRecord | undefined> {
    return lockedRun(client, org, namespace, runId)
  }

  begin(input: BeginInput, runId: string, now: number, key?: KeyClaim<BeginOutcome>): Promise<BeginOutcome | Replayed> {
    return this.#writes.submit({ op: 'begin', input, runId, now, key }) as Promise<BeginOutcome | Replayed>
  }

  complete(scope: Scope, input: CompleteInput, now: number, key?: KeyClaim<CompleteOutcome>): Promise<CompleteOutcome | Replayed> {
    return this.#writes.submit({ op: 'complete', scope, input, now, key }) as Promise<CompleteOutcome | Replayed>
  }

  grade(scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome> {
    return this.#writes.submit({ op: 'grade', scope, target, verdict, now }) as Promise<GradeOutcome>
  }

  /**
   * One transaction for the batch (write-batch.ts). PostgreSQL unreachable
   * fails every write of it (none was acknowledged). Any other failure, or a
   * key another server kept meanwhile, rolls it back and tries its writes one
   * by one, each in a transaction of its own: one write's failure is its own.
   */
  async #flush(writes: StoreWrite[]): Promise<Array<BatchResult<StoreWriteResult>>> {
    this.#sweepKeys(writes[0]!.now)
    try {
      // The partitions of the months the batch's new runs start in, before its transaction (partitions.ts): known months cost nothing.
      for (const write of writes) if (write.op === 'begin') await this.#guard(() => this.#months.ensure(this.#pool, write.now))
      const { results } = await this.#transaction(
        (client) => applyBatch(client, writes),
        (outcome) => !outcome.raced,
      )
      return results.map((value) => ({ ok: true, value }))
    } catch (error) {
      if (error instanceof StoreUnavailableError) return writes.map(() => ({ ok: false, error }))
      if (writes.length > 1 || error instanceof KeyRaced) {
        const alone: Array<BatchResult<StoreWriteResult>> = []
        for (const write of writes) alone.push(...(await this.#flush([write])))
        return alone
      }
      return [{ ok: false, error }]
    }
  }

  /** Deletes the keys past their time, at most every KEY_SWEEP_SECONDS, beside the writes (a failure waits for the next sweep). */
  #sweepKeys(now: number): void {
    if (now - this.#sweptAt < KEY_SWEEP_SECONDS) return
    this.#sweptAt = now
    this.#pool.query(SWEEP_KEYS, [now - IDEMPOTENCY_KEY_TTL_SECONDS]).catch(() => {})
  }

  async get(scope: Scope, runId: string): Promise<RunRecord | undefined> {
    const { rows } = await this.#query<RunRow>(SELECT_RUN, [scope.org, scope.namespace, runId])
    const run = rows[0] === undefined ? undefined : recordOf(rows[0])
    return run !== undefined && isVisible(scope, run) ? run : undefined
  }

  async list(query: ListQuery, scope: Scope): Promise<ListPage> {
    const sql = listSql(query, scope)
    const { rows } = await this.#query<RunRow>(sql.page.text, sql.page.values)
    const more = rows.length > query.limit
    const runs = rows.slice(0, query.limit).map(recordOf)
    if (skipsTotal(query, runs.length)) return { runs, total: null, more }
    if (query.offset === 0 && runs.length < query.limit) return { runs, total: runs.length, more }
    const { rows: counted } = await this.#query<{ total: number }>(sql.count.text, sql.count.values)
    return { runs, total: counted[0]!.total, more }
  }

  async stats(query: StatsQuery, scope: Scope): Promise<StatsCell[]> {
    // JIT off for these statements: jsonb_each's estimate (100 rows a run) makes the planner compile them, which took longer than the query.
    const cells = await this.#transaction(async (client) => {
      await client.query('SET LOCAL jit = off')
      return this.#statsCache.cells(client, query, scope)
    })
    return cells.sort(compareCells)
  }

  async getTrace(scope: Scope, runId: string): Promise<Trace | null | undefined> {
    const run = await this.get(scope, runId)
    if (run === undefined) return undefined
    // As base64, a third more than the gzip bytes on the wire where bytea's text form (hex) is twice as many
    // (node-postgres reads every value as text: its binary mode would garble bytes that are not UTF-8).
    const { rows } = await this.#query<{ trace_gzip: string }>(
      "SELECT encode(trace_gzip, 'base64') AS trace_gzip FROM reagent_ledger_traces WHERE org = $1 AND namespace = $2 AND run_id = $3 AND started_at = $4",
      [scope.org, scope.namespace, runId, run.started_at],
    )
    const stored = rows[0]
    return stored === undefined ? null : (JSON.parse((await gunzipAsync(Buffer.from(stored.trace_gzip, 'base64'))).toString('utf8')) as Trace)
  }

  async putTrace(scope: Scope, runId: string, trace: Trace): Promise<TraceStored | undefined> {
    // The text once, compressed once (off the event loop), sent as a binary parameter (not as hex text).
    const text = JSON.stringify(trace)
    const compressed = await gzipAsync(text)
    return this.#transaction(async (client) => {
      const run = await this.#locked(client, scope.org, scope.namespace, runId)
      if (run === undefined || !isVisible(scope, run)) return undefined
      const bytes = Buffer.byteLength(text)
      await client.query(
        `INSERT INTO reagent_ledger_traces (org, namespace, run_id, started_at, trace_gzip, bytes, stored_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (org, namespace, run_id, started_at) DO UPDATE SET trace_gzip = EXCLUDED.trace_gzip, bytes = EXCLUDED.bytes, stored_at = EXCLUDED.stored_at`,
        [run.org, run.namespace, run.run_id, run.started_at, compressed, bytes, Date.now() / 1000],
      )
      await updateRun(client, { ...run, usage: summarizeUsage(trace) })
      return { turns: trace.turns.length, bytes, stored_bytes: compressed.length }
    })
  }

  async putResults(scope: Scope, resultsId: string, results: RunResults, now: number): Promise<boolean> {
    const shard = results.shard === null ? null : `${results.shard.index}/${results.shard.count}`
    const { rowCount } = await this.#query(
      `INSERT INTO reagent_ledger_results (org, namespace, results_id, branch, commit_sha, shard, started_at, results_json, stored_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (org, namespace, results_id) DO NOTHING`,
      [scope.org, scope.namespace, resultsId, results.branch, results.commit, shard, results.started_at, JSON.stringify(results), now],
    )
    return rowCount === 1
  }

  async listResults(scope: Scope, branch: string | undefined, limit: number): Promise<RunResults[]> {
    const { rows } = await this.#query<{ results_json: string }>(
      `SELECT results_json FROM reagent_ledger_results WHERE org = $1 AND namespace = $2 AND ($3::text IS NULL OR branch = $3)
       ORDER BY started_at DESC, results_id COLLATE "C" DESC LIMIT $4`,
      [scope.org, scope.namespace, branch ?? null, limit],
    )
    return rows.map((row) => JSON.parse(row.results_json) as RunResults)
  }

  /**
   * Removes the scope's runs that started before `policy.before` unless a
   * rule keeps them (prune-rules.ts): whole months by dropping their
   * partitions where every run of the month goes, the rest by DELETE, in
   * one transaction (prune-sql.ts). A dry run counts, and counts the months
   * it would drop.
   */
  async prune(scope: Scope, policy: PrunePolicy): Promise<PruneOutcome> {
    const { outcome, dropped } = await this.#transaction((client) => prunePostgres(client, scope, policy))
    if (!policy.dryRun) for (const month of dropped) this.#months.forget(month)
    return outcome
  }

  /** `SELECT 1` on the probe's connection (opened again after a failure), within `timeoutMs` for the connection and the query alike. */
  async ping(timeoutMs: number): Promise<void> {
    try {
      if (this.#probe === undefined) {
        const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs })
        client.on('error', () => {})
        this.#probe = client
        await client.connect()
      }
      await this.#probe.query('SELECT 1')
    } catch (error) {
      const broken = this.#probe
      this.#probe = undefined
      void broken?.end().catch(() => {})
      throw new StoreUnavailableError(this.kind, error)
    }
  }

  pool(): StorePool {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount }
  }

  /** Answers the writes queued (a shutdown drains them), then ends the pool. */
  async close(): Promise<void> {
    await this.#writes.drained()
    const probe = this.#probe
    this.#probe = undefined
    await Promise.all([this.#pool.end(), probe?.end().catch(() => {})])
  }
}
