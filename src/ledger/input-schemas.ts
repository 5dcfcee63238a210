/**
 * What each operation takes, in JSON Schema: the field names, types and
 * defaults of the Loom run-operations specification (and of our `trace.put`,
 * `trace.get`, `results.put` and `results.list`).
 * Request bodies are checked against these (with ajv, see validate-input.ts)
 * after the caller's identity filled `org` and `namespace`; the MCP tools
 * publish them as their input schemas. Unknown fields are allowed here: they
 * are served and named in `ignored_args`.
 */
import { CLOSED_STATUSES, RUN_STATUSES, VERDICTS } from './run-fields.js'
import { STATS_BUCKETS, STATS_GROUPS } from './stats-query.js'

/** Ids and names become file names and index keys: long ones are refused before they reach a store. */
export const MAX_ID = 256
/** Integers both stores keep exactly (a PostgreSQL bigint holds more; a JavaScript number no more). */
const MAX_INTEGER = Number.MAX_SAFE_INTEGER

// A default is written as a literal type (`strOr`, `idOr`), so FromSchema (input-types.ts) sees which fields always have a value.
const str = (description: string) => ({ type: 'string', description }) as const
const strOr = <const F extends string>(description: string, fallback: F) => ({ type: 'string', description, default: fallback }) as const
const id = (description: string) => ({ ...str(description), maxLength: MAX_ID }) as const
const idOr = <const F extends string>(description: string, fallback: F) => ({ ...strOr(description, fallback), maxLength: MAX_ID }) as const
const name = (description: string) => ({ type: 'string', minLength: 1, maxLength: MAX_ID, description }) as const

const org = name('The tenant (first element of the identity tuple); filled from the token or the server.')
const namespace = name('The namespace the op reads or writes; filled from the token or the server.')
const runId = id("The agent run (task scope) the call belongs to; '-' for none.")
const metadata = { type: 'object', description: 'Free-form key/values stored on the run.' } as const
const idempotencyKey = {
  type: 'string',
  pattern: '^[\\x21-\\x7e]{1,255}$',
  description:
    'A key naming this call (HTTP: the Idempotency-Key header): sent again with the same key, the call is answered what it was answered the first time, and writes nothing again. Kept a day.',
} as const
const keyList = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const

const operation = <const P extends Record<string, object>, const R extends readonly string[]>(title: string, description: string, properties: P, required: R) =>
  ({ title, description, type: 'object', properties, required }) as const

export const RUN_BEGIN_INPUT = operation(
  'run.begin',
  'Open a run (one execution of a task) before working on it. Idempotent on a re-sent run_id.',
  {
    org,
    namespace,
    agent: name('The writing agent; a token narrowed to an agent fills it.'),
    user_id: idOr("The end user the run belongs to; '-' for none.", '-'),
    session_id: idOr('The conversation this run belongs to.', '-'),
    run_id: idOr('The run id; empty or "-" = the server mints one (a ULID).', ''),
    goal: { type: 'string', minLength: 1, description: "What the run sets out to do, in the agent's words." },
    user_request: strOr('The original request that started the run, verbatim.', ''),
    expected_outcome: strOr('What a successful run should produce.', ''),
    environment: strOr('Where the run executes (ci, local, ...).', ''),
    model: strOr('The model the agent runs on.', ''),
    consumer: strOr("The calling integration's tag.", ''),
    role: strOr("The agent's role in a multi-agent run; added to metadata.", ''),
    metadata,
    budget_usd: { type: 'number', minimum: 0, default: 0, description: 'Model spend in USD the run may reach; needs a session_id (0 = none).' },
    budget_seconds: { type: 'integer', minimum: 0, maximum: MAX_INTEGER, default: 0, description: 'Seconds the run may take (0 = none).' },
    idempotency_key: idempotencyKey,
  },
  ['org', 'namespace', 'agent', 'goal'],
)

export const RUN_COMPLETE_INPUT = operation(
  'run.complete',
  'Close a run opened with run.begin, exactly once, when the task ends.',
  {
    org,
    namespace,
    user_id: idOr("The run's user, as run.begin took it.", '-'),
    session_id: idOr("The run's conversation, as run.begin took it.", '-'),
    run_id: { ...runId, minLength: 1 },
    status: { enum: [...CLOSED_STATUSES], description: 'How the run ended.' },
    final_response: strOr("The agent's final answer.", ''),
    confidence: { type: 'number', minimum: 0, maximum: 1, default: 0, description: "The agent's confidence in the result (0-1)." },
    memories_used: keyList('memory_keys the agent relied on; stored on the run.'),
    recalled_keys: keyList('memory keys the session was served; accepted (this ledger has no memory store).'),
    outcome: { enum: ['', 'positive', 'negative', 'none'], default: '', description: 'Outcome applied to memories_used; "" derives from status.' },
    weight: { type: 'integer', minimum: 1, maximum: 100, default: 1, description: 'Event count per memory event (1-100).' },
    duration_ms: { type: 'integer', minimum: 0, maximum: MAX_INTEGER, default: 0, description: 'Wall-clock override; 0 = computed from started_at.' },
    metadata: { ...metadata, description: "Merged into the run's metadata; keys given here win." },
    reflection: { type: ['object', 'null'], default: null, description: 'Process learning; accepted (this ledger has no memory store).' },
    retain: { enum: ['', 'keep', 'demote', 'expire'], default: '', description: 'What happens to the rows this run wrote ("" = keep).' },
    idempotency_key: idempotencyKey,
  },
  ['org', 'namespace', 'run_id', 'status'],
)

export const RUN_GET_INPUT = operation('run.get', 'Replay one run: its row, turns, cost and budgets.', { org, namespace, run_id: { ...runId, minLength: 1 } }, [
  'org',
  'namespace',
  'run_id',
])

export const RUN_GRADE_INPUT = operation(
  'run.grade',
  'A verdict on a closed run, or on every closed run of a session.',
  {
    org,
    namespace,
    run_id: idOr('The run to grade; "" or "-" = none.', ''),
    session_id: idOr('Every closed run of this session; "" or "-" = none.', ''),
    grade: { enum: [...VERDICTS], description: 'pass (the result held up) or fail.' },
    source: strOr('Who graded: maintainer, ci, reviewer, judge...', 'caller'),
    reason: strOr('Why; stored on the run as grade_reason.', ''),
    ref: strOr('What the grade rests on: a URL, a finding key, a check run id.', ''),
  },
  ['org', 'namespace', 'grade'],
)

export const LIST_ORDERS = ['started_desc', 'started_asc', 'duration_desc', 'duration_asc', 'relied_on_desc', 'relied_on_asc'] as const
export const GRADE_FILTERS = ['', 'ungraded', 'graded', 'pass', 'fail'] as const
export const MAX_LIST_LIMIT = 200
export const MAX_LIST_OFFSET = 100_000

export const RUN_LIST_INPUT = operation(
  'run.list',
  "A page of a namespace's runs and their match count (total), filtered and sorted.",
  {
    org,
    namespace,
    agent: strOr('Only this agent\'s runs; "", "*" or "-" = every agent.', ''),
    session_id: strOr('Only this session\'s runs; "", "*" or "-" = every session.', ''),
    status: { enum: ['', ...RUN_STATUSES], default: '', description: 'Only runs in this status; "" = every status.' },
    limit: { type: 'integer', minimum: 0, default: 50, description: `At most this many runs; capped at ${MAX_LIST_LIMIT}.` },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_LIST_OFFSET,
      default: 0,
      description: 'Runs to skip before the page (reads every run it skips: a cursor pages at the cost of the first page).',
    },
    cursor: strOr('The next_cursor of the page before: the page after it, in the same order_by; "" = the first page. Not with offset.', ''),
    order_by: { enum: [...LIST_ORDERS], default: 'started_desc', description: 'Start time, duration (0 while active) or memories relied on.' },
    q: strOr('Only runs whose goal, run id or agent holds this text, in any case.', ''),
    memory_activity: { enum: ['', 'with', 'without'], default: '', description: 'Runs that relied on or wrote a memory, or neither.' },
    grade: { enum: [...GRADE_FILTERS], default: '', description: 'ungraded, graded, pass or fail; "" = every run.' },
    fields: { type: ['array', 'null'], items: { type: 'string' }, default: null, description: 'The run fields to return; unset, every field.' },
  },
  ['org', 'namespace'],
)

/** Our extension: the trace of a run, uploaded (gzip accepted) so that run.get prices it and the ledger keeps it. */
export const TRACE_PUT_INPUT = operation(
  'trace.put',
  'Upload a run\'s trace (trace format "1"); replaces the one it had.',
  { org, namespace, run_id: { ...runId, minLength: 1 }, trace: { type: 'object', description: 'The trace, as reagent-flow writes it.' } },
  ['org', 'namespace', 'run_id', 'trace'],
)

/** Our extension: the trace a run's trace.put kept (or, in a trace directory, the run's own trace file), as `reagent-flow scaffold` reads it. */
export const TRACE_GET_INPUT = operation(
  'trace.get',
  'Download a run\'s trace (trace format "1") as the ledger keeps it: the turns trace.put sent.',
  { org, namespace, run_id: { ...runId, minLength: 1 } },
  ['org', 'namespace', 'run_id'],
)

export const MAX_RESULTS_LIMIT = 200

/** Our extension (not in Loom's specification): a run's results file (reagent-flow/vitest/reporter), kept with its commit, branch and shard. */
export const RESULTS_PUT_INPUT = operation(
  'results.put',
  'Keep the results file of a test run (results_version 1); the same results put again change nothing.',
  { org, namespace, results: { type: 'object', description: 'The results file, as reagent-flow/vitest/reporter writes it.' } },
  ['org', 'namespace', 'results'],
)

/** Our extension (not in Loom's specification): the results kept, newest first, as the baseline of `reagent-flow compare`. */
export const RESULTS_LIST_INPUT = operation(
  'results.list',
  'The newest results files of a namespace (by started_at), of one branch or of every branch.',
  {
    org,
    namespace,
    branch: strOr('Only the results of this git branch; "", "*" or "-" = every branch.', ''),
    limit: { type: 'integer', minimum: 0, default: 20, description: `At most this many results files; capped at ${MAX_RESULTS_LIMIT}.` },
  },
  ['org', 'namespace'],
)

/** Our extension (not in Loom's specification): runs, pass rate, tokens, cost, duration and turns per group and time bucket (decision 080). */
export const RUN_STATS_INPUT = operation(
  'run.stats',
  'Trends: per agent (test, branch or commit) and per hour, day or week, the runs, pass rate, tokens, cost, duration p50/p95 and turns.',
  {
    org,
    namespace,
    by: { enum: [...STATS_GROUPS], default: 'agent', description: "Group by the run's agent, or its metadata's test_name, git_branch or git_commit." },
    bucket: { enum: [...STATS_BUCKETS], default: 'day', description: 'The time bucket of started_at, UTC (weeks start on Monday).' },
    since: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,5}[hdw]$',
      default: '30d',
      description: 'Only runs started this long before now: a count of hours, days or weeks ("12h", "30d", "8w").',
    },
    agent: idOr('Only the runs of this agent; "", "*" or "-" = every agent.', ''),
  },
  ['org', 'namespace'],
)

/** Our extension (not in Loom's specification): retention, for admin tokens only (decision 084). */
export const RUN_PRUNE_INPUT = operation(
  'run.prune',
  "Remove the namespace's runs (and their traces) that started before older_than, except active runs, each agent's newest keep_last runs, runs of a branch's latest results and, with keep_failed, failed ones.",
  {
    org,
    namespace,
    older_than: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,5}[hdw]$',
      description: 'Runs started more than this long before now are removed: a count of hours, days or weeks ("36h", "90d", "12w").',
    },
    keep_failed: { type: 'boolean', default: false, description: 'Keep runs that ended failed or were graded fail.' },
    keep_last: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      description: 'Keep the newest this many runs of each agent, whatever their age.',
    },
    dry_run: { type: 'boolean', default: false, description: 'Count what would be removed; remove nothing.' },
  },
  ['org', 'namespace', 'older_than'],
)

export const OPERATION_INPUTS = {
  'run.begin': RUN_BEGIN_INPUT,
  'run.complete': RUN_COMPLETE_INPUT,
  'run.get': RUN_GET_INPUT,
  'run.grade': RUN_GRADE_INPUT,
  'run.list': RUN_LIST_INPUT,
  'trace.put': TRACE_PUT_INPUT,
  'trace.get': TRACE_GET_INPUT,
  'results.put': RESULTS_PUT_INPUT,
  'results.list': RESULTS_LIST_INPUT,
  'run.stats': RUN_STATS_INPUT,
  'run.prune': RUN_PRUNE_INPUT,
} as const

export type OperationName = keyof typeof OPERATION_INPUTS
export const RUN_OPERATIONS = ['run.begin', 'run.complete', 'run.get', 'run.grade', 'run.list', 'run.stats'] as const
export type RunOperationName = (typeof RUN_OPERATIONS)[number]
