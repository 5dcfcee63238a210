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
import { LedgerRequestError, StoreUnavailableError, WriteQueueFullError } from './errors.js'
import { fingerprintOf, type KeptAnswer, type KeyClaim, type KeyedOperation } from './idempotency.js'
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
import type { BeginOutcome, CompleteOutcome, LedgerStore } from './store.js'
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
  /** Keyed writes being answered, by scope, operation and key. */
  readonly #keysInFlight = new Map<string, Promise<object>>()

  constructor(store: LedgerStore, options: LedgerServiceOptions = {}) {
    this.store = store
    this.#prices = options.prices ?? defaultPriceTable()
    this.#now = options.now ?? epochSeconds
  }

  /**
   * Runs `operation` for `caller` on a parsed body; throws LedgerRequestError.
   * `idempotencyKey`: the HTTP header `Idempotency-Key` (run.begin and run.complete; the body's `idempotency_key` is the same key).
   */
  async call(operation: OperationName, caller: Caller, rawBody: unknown, idempotencyKey?: string): Promise<object> {
    requireRole(operation, caller)
    const schema = OPERATION_INPUTS[operation]
    const raw = requireObject(operation, rawBody)
    checkValues(operation, raw)
    const ignored = ignoredArgs(schema, raw)
    const body = withHeaderKey(operation, fillIdentity(operation, raw, caller, IDENTITY_USE[operation]), idempotencyKey)
    const out = await this.#run(operation, caller, body).catch((error: unknown) => {
      if (error instanceof WriteQueueFullError) {
        throw new LedgerRequestError(
          'unavailable',
          `${operation}: the ledger's store (${this.store.location}) is busy: ${error.message}; try again in a moment`,
          {},
          { cause: error },
        )
      }
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

  /**
   * `write` once per key: a call whose key is being answered waits for that answer, then asks the store,
   * which answers the kept one (a client that gave up on its first call and sent it again while it ran).
   */
  async #once<T extends object>(
    scope: { org: string; namespace: string },
    operation: KeyedOperation,
    key: string | undefined,
    write: () => Promise<T>,
  ): Promise<T> {
    if (key === undefined) return write()
    const name = `${scope.org}\u0000${scope.namespace}\u0000${operation}\u0000${key}`
    // Calls of one key run one after another: each finds the answer the one before it kept.
    const previous = this.#keysInFlight.get(name)
    const running = (async () => {
      if (previous !== undefined) await previous.catch(() => {})
      return write()
    })()
    this.#keysInFlight.set(name, running)
    try {
      return await running
    } finally {
      if (this.#keysInFlight.get(name) === running) this.#keysInFlight.delete(name)
    }
  }

  async #begin(sent: BeginInput): Promise<RunBeginResult> {
    const { idempotency_key: key, ...checked } = sent
    const input: BeginInput = { ...checked, user_id: noneAsDash(checked.user_id), session_id: noneAsDash(checked.session_id) }
    if (input.budget_usd > 0 && input.session_id === '-') {
      throw new LedgerRequestError('invalid_input', 'run.begin: budget_usd needs a session_id: the cost budget is kept per session (rule: needs_session_id)', {
        field: 'budget_usd',
        rule: 'needs_session_id',
      })
    }
    const runId = none(input.run_id) ? ulid() : input.run_id
    const claim = keyClaim('run.begin', key, input, beginAnswer)
    const outcome = await this.#once(input, 'run.begin', key, () => this.store.begin(input, runId, this.#now(), claim))
    if (outcome.kind === 'replayed') return replayed('run.begin', key!, claim!, outcome.kept) as RunBeginResult
    if (outcome.kind === 'conflict') {
      throw new LedgerRequestError(
        'run_conflict',
        `run.begin: run "${runId}" belongs to another ${OWNER_WORD[outcome.field]}; send an empty run_id to open a new run`,
      )
    }
    return beginAnswer(outcome)!
  }

  async #complete(caller: Caller, sent: CompleteInput): Promise<RunCompleteResult> {
    const { idempotency_key: key, ...input } = sent
    const scope = scopeOf(caller, input)
    const written: CompleteInput = { ...input, user_id: noneAsDash(input.user_id), session_id: noneAsDash(input.session_id) }
    const claim = keyClaim('run.complete', key, { ...written, scope }, (done: CompleteOutcome) => completeAnswer(done, input))
    const outcome = await this.#once(scope, 'run.complete', key, () => this.store.complete(scope, written, this.#now(), claim))
    if (outcome.kind === 'replayed') return replayed('run.complete', key!, claim!, outcome.kept) as RunCompleteResult
    if (outcome.kind === 'not_found') throw notFound('run.complete', input, caller)
    if (outcome.kind === 'closed') {
      const at = outcome.run.completed_at === null ? '' : ` at ${isoTimeOf(outcome.run.completed_at)}`
      throw new LedgerRequestError(
        'run_closed',
        `run.complete: run "${input.run_id}" is already ${outcome.run.status}${at}; a run is completed exactly once, and this call changed nothing`,
      )
    }
    return completeAnswer(outcome, input)!
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

/** What run.begin answers for the store's outcome (a conflict is refused: no answer to keep). */
function beginAnswer(outcome: BeginOutcome): RunBeginResult | undefined {
  if (outcome.kind === 'conflict') return undefined
  const { run } = outcome
  const next =
    run.status === 'active'
      ? `Work on the task, then call run.complete (MCP: loom_run_complete) exactly once with run_id "${run.run_id}" and status completed, failed or cancelled.`
      : `Run "${run.run_id}" is already ${run.status}; send an empty run_id to open a new run.`
  return { run_id: run.run_id, status: run.status, started_at: isoTimeOf(run.started_at), next }
}

/** What run.complete answers when it closed the run (any other outcome is refused: no answer to keep). */
function completeAnswer(outcome: CompleteOutcome, input: Pick<CompleteInput, 'retain'>): RunCompleteResult | undefined {
  if (outcome.kind !== 'completed') return undefined
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

/** The key's claim for the store, or undefined without a key. The fingerprint is of the call as checked, before a run id is minted. */
function keyClaim<O>(operation: KeyedOperation, key: string | undefined, call: object, answer: (outcome: O) => object | undefined): KeyClaim<O> | undefined {
  return key === undefined ? undefined : { operation, key, fingerprint: fingerprintOf(operation, call), answer }
}

/** The answer kept under the key, when it was kept for this same call. */
function replayed<O>(operation: KeyedOperation, key: string, claim: KeyClaim<O>, kept: KeptAnswer): object {
  if (kept.fingerprint === claim.fingerprint) return kept.answer
  throw new LedgerRequestError(
    'invalid_input',
    `${operation}: the idempotency key "${key}" was used at ${isoTimeOf(kept.stored_at)} for another ${operation} call; a key names one call: send a new key with a new call (rule: reused)`,
    { field: 'idempotency_key', rule: 'reused' },
  )
}

/** An idempotency key: up to 255 visible ASCII characters, as an HTTP header can carry. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

/** The body with the header's key as its `idempotency_key` (run.begin and run.complete only); a header and a body field that differ are a 422. */
function withHeaderKey(operation: OperationName, body: Record<string, unknown>, header: string | undefined): Record<string, unknown> {
  if (operation !== 'run.begin' && operation !== 'run.complete') return body
  if (header === undefined) return body
  if (!KEY_PATTERN.test(header)) {
    throw new LedgerRequestError('invalid_input', `${operation}: the Idempotency-Key header must be 1 to 255 visible ASCII characters (rule: pattern)`, {
      field: 'idempotency_key',
      rule: 'pattern',
    })
  }
  if (body.idempotency_key !== undefined && body.idempotency_key !== header) {
    throw new LedgerRequestError(
      'invalid_input',
      `${operation}: the Idempotency-Key header and the body's idempotency_key differ; send the key once (rule: conflict)`,
      { field: 'idempotency_key', rule: 'conflict' },
    )
  }
  return { ...body, idempotency_key: header }
}

function notFound(operation: string, input: { org: string; namespace: string; run_id: string }, caller: Caller): LedgerRequestError {
  const narrowed = caller.agent !== undefined || caller.session_id !== undefined ? ' that this token may see' : ''
  return new LedgerRequestError(
    'run_not_found',
    `${operation}: no run "${input.run_id}" in namespace "${input.namespace}" of org "${input.org}"${narrowed}; run.begin opens one, run.list shows the ones there are`,
  )
}
