/**
 * `createLedgerClient(url, { token })`: the run operations of a ledger
 * (`reagent-flow serve`, or any Loom-compatible server), and our trace.put, trace.get,
 * results.put and results.list (`reagent-flow serve` only), as typed calls
 * over fetch. A refused call throws `LedgerError` with the server's status and
 * error body; one that gets no answer throws it with `status: null`.
 */
import { gzip } from 'node:zlib'
import { promisify } from 'node:util'
import { LedgerError, type LedgerErrorBody } from './errors.js'
import type { RunResults } from '../results/types.js'
import type {
  ResultsListInput,
  ResultsPutInput,
  RunBeginInput,
  RunCompleteInput,
  RunGetInput,
  RunGradeInput,
  RunListInput,
  RunPruneInput,
  RunStatsInput,
  TraceGetInput,
  TracePutInput,
} from './input-types.js'
import type {
  ResultsListResult,
  ResultsPutResult,
  RunBeginResult,
  RunCompleteResult,
  RunGetResult,
  RunGradeResult,
  RunListResult,
  RunPruneResult,
  RunStatsResult,
  TraceGetResult,
  TracePutResult,
} from './output-schemas.js'

const gzipAsync = promisify(gzip)

export interface LedgerClientOptions {
  /** A bearer token of the server's token file. */
  token?: string | undefined
  /** Abandon a call after this long. Default: 10,000 ms (trace.put: 60,000 ms). */
  timeoutMs?: number | undefined
  /** Default: the global fetch. */
  fetch?: typeof fetch
}

export interface LedgerClient {
  /** The ledger's base URL, without `/v1`. */
  readonly url: string
  begin(input: RunBeginInput): Promise<RunBeginResult>
  complete(input: RunCompleteInput): Promise<RunCompleteResult>
  get(input: RunGetInput | string): Promise<RunGetResult>
  grade(input: RunGradeInput): Promise<RunGradeResult>
  list(input?: RunListInput): Promise<RunListResult>
  /** Trends (our extension, run.stats): runs, pass rate, tokens, cost, duration p50/p95 and turns per group and time bucket: `{ by: 'agent', bucket: 'day', since: '30d' }`. */
  stats(input?: RunStatsInput): Promise<RunStatsResult>
  /**
   * Retention (our extension, run.prune; an admin token): removes the runs
   * started more than `older_than` ago, keeping active runs, each agent's
   * newest `keep_last`, runs of a branch's latest results and, with
   * `keep_failed`, failed ones: `{ older_than: '90d', dry_run: true }`.
   */
  prune(input: RunPruneInput): Promise<RunPruneResult>
  /**
   * Uploads a run's trace (our extension of the operations, trace.put):
   * `traceJson` is the trace file's text (as `renderTrace` makes it), sent
   * gzip-compressed.
   */
  putTrace(input: TracePutInput, traceJson: string): Promise<TracePutResult>
  /** A run's trace as trace.put kept it (our extension, trace.get): `trace` null when the run has none. */
  getTrace(input: TraceGetInput | string): Promise<TraceGetResult>
  /**
   * Keeps a run's results file (our extension, results.put; not in Loom's
   * specification), sent gzip-compressed: `results` as the reporter wrote
   * it, parsed. The same results put again change nothing (`stored: false`).
   */
  putResults(results: RunResults, input?: ResultsPutInput): Promise<ResultsPutResult>
  /** The newest results files, of one branch or of all (our extension, results.list): `{ branch: 'main', limit: 20 }`. */
  listResults(input?: ResultsListInput): Promise<ResultsListResult>
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

export function createLedgerClient(url: string, options: LedgerClientOptions = {}): LedgerClient {
  const base = url.replace(/\/+$/, '').replace(/\/v1$/, '')
  const doFetch = options.fetch ?? fetch

  async function call<T>(
    operation: string,
    body: string | Buffer,
    extraHeaders: Record<string, string> = {},
    timeoutMs = options.timeoutMs ?? 10_000,
  ): Promise<T> {
    const endpoint = `${base}/v1/${operation}`
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    let response: Response
    try {
      response = await doFetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeCause(error)
      throw new LedgerError(operation, endpoint, null, null, `${operation}: could not reach the ledger at ${endpoint} (${why})`, { cause: error })
    }
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (response.ok && parsed !== undefined) return parsed as T
    const errorBody = parsed !== null && typeof parsed === 'object' && 'error' in parsed ? (parsed as LedgerErrorBody) : null
    const what = errorBody === null ? text.slice(0, 200) : `${errorBody.error}: ${errorBody.message}`
    throw new LedgerError(operation, endpoint, response.status, errorBody, `${operation}: the ledger at ${endpoint} answered ${response.status} ${what}`)
  }

  const json = <T>(operation: string, input: object): Promise<T> => call<T>(operation, JSON.stringify(input))

  return {
    url: base,
    begin: (input) => json('run.begin', input),
    complete: (input) => json('run.complete', input),
    get: (input) => json('run.get', typeof input === 'string' ? { run_id: input } : input),
    grade: (input) => json('run.grade', input),
    list: (input = {}) => json('run.list', input),
    stats: (input = {}) => json('run.stats', input),
    // A prune of a large ledger takes a while: a minute, as an upload.
    prune: (input) => call<RunPruneResult>('run.prune', JSON.stringify(input), {}, options.timeoutMs ?? 60_000),
    async putResults(results, input = {}) {
      return call<ResultsPutResult>(
        'results.put',
        await gzipAsync(JSON.stringify({ ...input, results })),
        { 'content-encoding': 'gzip' },
        options.timeoutMs ?? 60_000,
      )
    },
    listResults: (input = {}) => json('results.list', input),
    getTrace: (input) => json('trace.get', typeof input === 'string' ? { run_id: input } : input),
    async putTrace(input, traceJson) {
      // The trace's text goes in as it is: parsing and serialising a large trace again would double the work.
      const body = `${JSON.stringify(input).slice(0, -1)}${Object.keys(input).length === 0 ? '' : ','}"trace":${traceJson}}`
      return call<TracePutResult>('trace.put', await gzipAsync(body), { 'content-encoding': 'gzip' }, options.timeoutMs ?? 60_000)
    },
  }
}
