/**
 * The five run operations (and our trace.put, results.put and results.list)
 * over any store: identity, input checks and defaults, then the store's
 * atomic step, then the output fields of the specification. Transports (HTTP, MCP) call `call()` and render a
 * `LedgerRequestError` as their error; nothing here knows about them.
 */
import { exceedsLimit, type ModelCost } from '../trace/cost.js'
import { epochSeconds, ulid } from '../trace/ids.js'
import { defaultPriceTable } from '../storage/index.js'
import type { BeginInput, CheckedInputs, CompleteInput, GradeInput, GradeVerdict, ListInput } from './checked-input.js'
import { LedgerRequestError, StoreUnavailableError } from './errors.js'
import type { Caller } from '../server/caller.js'
import { fillIdentity, isAny, scopeOf, type IdentityUse } from './identity.js'
import { MAX_RESULTS_LIMIT, OPERATION_INPUTS, type OperationName } from './input-schemas.js'
import { checkValues } from './input-values.js'
import { encodeCursor, positionOf } from './list-cursor.js'
import { checkFields, listQueryOf, skipsTotal } from './list-query.js'
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
import { checkedResults, resultsIdOf } from './results-upload.js'
import { isoTimeOf, projectRow, toRunRow } from './run-row.js'
import type { LedgerStore } from './store.js'
import { checkUploadedTrace } from './trace-upload.js'
import { requireRole } from './roles.js'
import { sinceOf } from './stats-query.js'
import { statsQueryOf, statsRowOf } from './stats-result.js'
import { priceUsage } from './usage-summary.js'
import { checkedInput, ignoredArgs, requireObject } from './validate-input.js'

export interface LedgerServiceOptions {
  /** The price table for cost_usd and cost budgets. Default: the built-in one (with REAGENT_PRICES over it). */
  prices?: ReadonlyMap<string, ModelCost>
  /** The server's clock, in epoch seconds. */
  now?: () => number
}

/** How each operation takes the token's agent and session_id (see fillIdentity). */
const IDENTITY_USE: Record<OperationName, { agent?: IdentityUse; session_id?: IdentityUse }> = {
  'run.begin': { agent: 'value', session_id: 'value' },
  'run.complete': { session_id: 'value' },
  'run.get': {},
  'run.grade': { session_id: 'check' },
  'run.list': { agent: 'filter', session_id: 'filter' },
  'trace.put': {},
  'trace.get': {},
  // Results belong to the namespace, not to an agent or a session: a narrowed token reads and writes them as its namespace's.
  'results.put': {},
  'results.list': {},
  'run.stats': { agent: 'filter' },
  // Retention applies to the namespace; a narrowed admin token prunes only what it sees (the store bounds it by the scope).
  'run.prune': {},
}

/** What a run.begin conflict names: the kind of owner, never the owner (it may be outside the caller's scope). */
const OWNER_WORD = { agent: 'agent', user_id: 'user', session_id: 'session' } as const

const none = (value: string): boolean => value === '' || value === '-'
const noneAsDash = (value: string): string => (value === '' ? '-' : value)

export class LedgerService {
  readonly store: LedgerStore
  readonly #prices: ReadonlyMap<string, ModelCost>
  readonly #now: () => number

  constructor(store: LedgerStore, options: LedgerServiceOptions = {}) {
    this.store = store
    this.#prices = options.prices ?? defaultPriceTable()
    this.#now = options.now ?? epochSeconds
  }

  /** Runs `operation` for `caller` on a parsed body; throws LedgerRequestError. */
  async call(operation: OperationName, caller: Caller, rawBody: unknown): Promise<object> {
    requireRole(operation, caller)
    const schema = OPERATION_INPUTS[operation]
    const raw = requireObject(operation, rawBody)
    checkValues(operation, raw)
    const ignored = ignoredArgs(schema, raw)
    const body = fillIdentity(operation, raw, caller, IDENTITY_USE[operation])
    const out = await this.#run(operation, caller, body).catch((error: unknown) => {
      if (!(error instanceof StoreUnavailableError)) throw error
      throw new LedgerRequestError(
        'unavailable',
        `${operation}: the ledger's store (${this.store.location}) ${error.problem}; try again in a moment`,
        {},
        { cause: error },
      )
    })
    return ignored.length === 0 ? out : { ...out, ignored_args: ignored }
  }

  /** `body` checked against `operation`'s schema, with its defaults (a 422 when it breaks a rule), then run. */
  #run(operation: OperationName, caller: Caller, body: Record<string, unknown>): Promise<object> {
    switch (operation) {
      case 'run.begin':
        return this.#begin(checkedInput(operation, body))
      case 'run.complete':
        return this.#complete(caller, checkedInput(operation, body))
      case 'run.get':
        return this.#get(caller, checkedInput(operation, body))
      case 'run.grade':
        return this.#grade(caller, checkedInput(operation, body))
      case 'run.list':
        return this.#list(caller, checkedInput(operation, body))
      case 'trace.put':
        return this.#putTrace(caller, checkedInput(operation, body))
      case 'trace.get':
        return this.#getTrace(caller, checkedInput(operation, body))
      case 'results.put':
        return this.#putResults(caller, checkedInput(operation, body))
      case 'results.list':
        return this.#listResults(caller, checkedInput(operation, body))
      case 'run.stats':
        return this.#stats(caller, checkedInput(operation, body))
      case 'run.prune':
        return this.#prune(caller, checkedInput(operation, body))
    }
  }

  async #begin(input: BeginInput): Promise<RunBeginResult> {
    input = { ...input, user_id: noneAsDash(input.user_id), session_id: noneAsDash(input.session_id) }
    if (input.budget_usd > 0 && input.session_id === '-') {
      throw new LedgerRequestError('invalid_input', 'run.begin: budget_usd needs a session_id: the cost budget is kept per session (rule: needs_session_id)', {
        field: 'budget_usd',
        rule: 'needs_session_id',
      })
    }
    const runId = none(input.run_id) ? ulid() : input.run_id
    const outcome = await this.store.begin(input, runId, this.#now())
    const { run } = outcome
    if (outcome.kind === 'conflict') {
      throw new LedgerRequestError(
        'run_conflict',
        `run.begin: run "${runId}" belongs to another ${OWNER_WORD[outcome.field]}; send an empty run_id to open a new run`,
      )
    }
    const next =
      run.status === 'active'
        ? `Work on the task, then call run.complete (MCP: loom_run_complete) exactly once with run_id "${run.run_id}" and status completed, failed or cancelled.`
        : `Run "${run.run_id}" is already ${run.status}; send an empty run_id to open a new run.`
    return { run_id: run.run_id, status: run.status, started_at: isoTimeOf(run.started_at), next }
  }

  async #complete(caller: Caller, input: CompleteInput): Promise<RunCompleteResult> {
    const scope = scopeOf(caller, input)
    const outcome = await this.store.complete(scope, { ...input, user_id: noneAsDash(input.user_id), session_id: noneAsDash(input.session_id) }, this.#now())
    if (outcome.kind === 'not_found') throw notFound('run.complete', input, caller)
    if (outcome.kind === 'closed') {
      const at = outcome.run.completed_at === null ? '' : ` at ${isoTimeOf(outcome.run.completed_at)}`
      throw new LedgerRequestError(
        'run_closed',
        `run.complete: run "${input.run_id}" is already ${outcome.run.status}${at}; a run is completed exactly once, and this call changed nothing`,
      )
    }
    const { run } = outcome
    return {
      run_id: run.run_id,
      status: run.status as RunCompleteResult['status'],
      duration_ms: run.duration_ms,
      used_applied: 0,
      evidence_applied: 0,
      harm_applied: 0,
      memories_written: [],
      recalled: -1,
      observations: 0,
      procedure_runs_recorded: 0,
      reflection_key: '',
      retain: input.retain === '' ? 'keep' : input.retain,
      retained: 0,
      demoted: 0,
      expiring: 0,
    }
  }

  async #get(caller: Caller, input: CheckedInputs['run.get']): Promise<RunGetResult> {
    const run = await this.store.get(scopeOf(caller, input), input.run_id)
    const empty = { recalled: 0, recalled_keys: [], memories_written: [], observations: 0 }
    if (run === undefined) return { found: false, run: null, ...empty, turns: 0, unpriced_turns: 0, cost_usd: 0, elapsed_seconds: 0, over_budget: [] }
    const priced = priceUsage(run.usage, this.#prices)
    const elapsed = Math.max(0, Math.floor((run.completed_at ?? this.#now()) - run.started_at))
    const over: RunGetResult['over_budget'] = []
    if (run.budget_usd > 0 && exceedsLimit(priced.cost_usd, run.budget_usd)) over.push('cost')
    if (run.budget_seconds > 0 && elapsed > run.budget_seconds) over.push('time')
    return { found: true, run: toRunRow(run), ...empty, ...priced, elapsed_seconds: elapsed, over_budget: over }
  }

  async #grade(caller: Caller, input: GradeInput): Promise<RunGradeResult> {
    const target = { ...(none(input.run_id) ? {} : { run_id: input.run_id }), ...(none(input.session_id) ? {} : { session_id: input.session_id }) }
    if (target.run_id === undefined && target.session_id === undefined) {
      throw new LedgerRequestError('invalid_input', 'run.grade: give run_id (one run) or session_id (every closed run of it) (rule: required)', {
        field: 'run_id',
        rule: 'required',
      })
    }
    const verdict: GradeVerdict = { grade: input.grade, source: input.source, reason: input.reason, ref: input.ref }
    const outcome = await this.store.grade(scopeOf(caller, input), target, verdict, this.#now())
    if (outcome.runNotFound) throw notFound('run.grade', { ...input, run_id: target.run_id! }, caller)
    const relied = new Set(outcome.graded.flatMap((run) => run.memories_used))
    return {
      graded: outcome.graded.length,
      run_ids: outcome.graded.map((run) => run.run_id),
      skipped_active: outcome.skippedActive,
      unchanged: outcome.unchanged,
      memories_counted: relied.size,
      proposals_decided: [],
    }
  }

  async #list(caller: Caller, input: ListInput): Promise<RunListResult> {
    const fields = input.fields === null ? undefined : checkFields(input.fields)
    const after = positionOf(input)
    const query = after === undefined ? listQueryOf(input) : { ...listQueryOf(input), after }
    const page = await this.store.list(query, scopeOf(caller, input))
    const last = page.runs.at(-1)
    return {
      runs: page.runs.map((run) => projectRow(toRunRow(run), fields)),
      total: skipsTotal(query, page.runs.length) ? null : page.total,
      next_cursor: page.more && last !== undefined ? encodeCursor(query.orderBy, last) : null,
    }
  }

  async #putTrace(caller: Caller, input: CheckedInputs['trace.put']): Promise<TracePutResult> {
    const trace = checkUploadedTrace(input.trace)
    const stored = await this.store.putTrace(scopeOf(caller, input), input.run_id, trace)
    if (stored === undefined) throw notFound('trace.put', input, caller)
    return { run_id: input.run_id, ...stored }
  }

  async #getTrace(caller: Caller, input: CheckedInputs['trace.get']): Promise<TraceGetResult> {
    const trace = await this.store.getTrace(scopeOf(caller, input), input.run_id)
    if (trace === undefined) throw notFound('trace.get', input, caller)
    return { run_id: input.run_id, trace }
  }

  async #putResults(caller: Caller, input: CheckedInputs['results.put']): Promise<ResultsPutResult> {
    const results = checkedResults(input.results)
    const resultsId = resultsIdOf(results)
    const stored = await this.store.putResults(scopeOf(caller, input), resultsId, results, this.#now())
    return { results_id: resultsId, stored }
  }

  async #listResults(caller: Caller, input: CheckedInputs['results.list']): Promise<ResultsListResult> {
    const branch = isAny(input.branch) ? undefined : input.branch
    return { results: await this.store.listResults(scopeOf(caller, input), branch, Math.min(input.limit, MAX_RESULTS_LIMIT)) }
  }

  async #stats(caller: Caller, input: CheckedInputs['run.stats']): Promise<RunStatsResult> {
    const query = statsQueryOf(input, this.#now())
    const cells = await this.store.stats(query, scopeOf(caller, input))
    return { by: query.by, bucket: query.bucket, since: isoTimeOf(query.since), rows: cells.map((cell) => statsRowOf(cell, this.#prices)) }
  }

  async #prune(caller: Caller, input: CheckedInputs['run.prune']): Promise<RunPruneResult> {
    const now = this.#now()
    const before = sinceOf(input.older_than, now) ?? now
    const policy = { before, keepFailed: input.keep_failed, keepLastPerAgent: input.keep_last, dryRun: input.dry_run }
    const outcome = await this.store.prune(scopeOf(caller, input), policy, now)
    return { before: isoTimeOf(before), dry_run: input.dry_run, removed: outcome.removed, kept: outcome.kept, partitions_dropped: outcome.partitionsDropped }
  }
}

function notFound(operation: string, input: { org: string; namespace: string; run_id: string }, caller: Caller): LedgerRequestError {
  const narrowed = caller.agent !== undefined || caller.session_id !== undefined ? ' that this token may see' : ''
  return new LedgerRequestError(
    'run_not_found',
    `${operation}: no run "${input.run_id}" in namespace "${input.namespace}" of org "${input.org}"${narrowed}; run.begin opens one, run.list shows the ones there are`,
  )
}
