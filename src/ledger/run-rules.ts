/**
 * What begin, complete and grade do to a run, as pure functions of the run
 * and the call: both stores apply them inside their atomic step (a
 * synchronous update of the directory index, a PostgreSQL transaction
 * holding the row lock), so the rules live in one place and the stores only
 * guarantee that nothing interleaves. Every record they make holds the
 * caller's free text redacted (redact-run.ts): whatever store writes it.
 */
import type { JsonObject } from '../trace/types.js'
import type { BeginInput, CompleteInput, GradeVerdict } from './checked-input.js'
import { redactBegin, redactComplete, redactVerdict } from './redact-run.js'
import { blankRun } from './run-fields.js'
import type { RunRecord } from './run-row.js'

function metadataOf(input: Pick<BeginInput, 'metadata' | 'role'>): JsonObject {
  const metadata = { ...input.metadata }
  if (input.role !== '') metadata.role = input.role
  return metadata
}

/** The run a first run.begin opens: what the call gives, every other field blank (run-fields.ts). */
export function openedRun(sent: BeginInput, runId: string, now: number): RunRecord {
  const input = redactBegin(sent)
  return {
    ...blankRun(),
    org: input.org,
    namespace: input.namespace,
    run_id: runId,
    agent: input.agent,
    user_id: input.user_id,
    session_id: input.session_id,
    goal: input.goal,
    user_request: input.user_request,
    expected_outcome: input.expected_outcome,
    environment: input.environment,
    model: input.model,
    consumer: input.consumer,
    status: 'active',
    started_at: now,
    metadata: metadataOf(input),
    budget_usd: input.budget_usd,
    budget_seconds: input.budget_seconds,
  }
}

export type Rebegin =
  /** Nothing to write: the run is closed, or the call says nothing new. */
  | { kind: 'unchanged' }
  | { kind: 'updated'; run: RunRecord }
  /** The id belongs to another agent, user or session. */
  | { kind: 'conflict'; field: 'agent' | 'user_id' | 'session_id' }

/**
 * A re-sent run.begin of an existing run: the first `started_at` and budgets
 * are kept; on an active run the descriptive fields the call gives (not
 * empty) replace the stored ones and its metadata is merged over the stored
 * one. A closed run is left as it is.
 */
export function rebegin(run: RunRecord, sent: BeginInput): Rebegin {
  const input = redactBegin(sent)
  for (const field of ['agent', 'user_id', 'session_id'] as const) {
    if (run[field] !== input[field]) return { kind: 'conflict', field }
  }
  if (run.status !== 'active') return { kind: 'unchanged' }
  const next: RunRecord = { ...run, metadata: { ...run.metadata, ...metadataOf(input) } }
  for (const field of ['goal', 'user_request', 'expected_outcome', 'environment', 'model', 'consumer'] as const) {
    if (input[field] !== '') next[field] = input[field]
  }
  const changed = JSON.stringify(next) !== JSON.stringify(run)
  return changed ? { kind: 'updated', run: next } : { kind: 'unchanged' }
}

/** An active run closed by run.complete at `now` (epoch seconds). */
export function completedRun(run: RunRecord, sent: CompleteInput, now: number): RunRecord {
  const input = redactComplete(sent)
  const end = Math.max(now, run.started_at)
  return {
    ...run,
    status: input.status,
    completed_at: end,
    duration_ms: input.duration_ms > 0 ? input.duration_ms : Math.round((end - run.started_at) * 1000),
    final_response: input.final_response,
    confidence: input.confidence,
    memories_used: input.memories_used ?? run.memories_used,
    metadata: { ...run.metadata, ...input.metadata },
  }
}

/** What run.grade does to one run of its target. */
export function gradeAction(run: RunRecord, sent: GradeVerdict): 'skip_active' | 'unchanged' | 'grade' {
  if (run.status === 'active') return 'skip_active'
  const verdict = redactVerdict(sent)
  const same =
    run.grade === verdict.grade && run.grade_source === verdict.source && (run.grade_reason ?? '') === verdict.reason && (run.grade_ref ?? '') === verdict.ref
  return same ? 'unchanged' : 'grade'
}

export function gradedRun(run: RunRecord, sent: GradeVerdict, now: number): RunRecord {
  const verdict = redactVerdict(sent)
  return { ...run, grade: verdict.grade, grade_source: verdict.source, grade_reason: verdict.reason, grade_ref: verdict.ref, graded_at: now }
}

/** The lower-case text run.list's `q` searches: goal, run id and agent. */
export function searchTextOf(run: Pick<RunRecord, 'goal' | 'run_id' | 'agent'>): string {
  return `${run.goal}\n${run.run_id}\n${run.agent}`.toLowerCase()
}
