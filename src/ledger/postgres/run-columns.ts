/** A RunRecord as a row of `reagent_ledger_runs`, and back. */
import type { JsonObject } from '../../trace/types.js'
import type { RunRecord } from '../run-row.js'
import { searchTextOf } from '../run-rules.js'
import type { UsageSummary } from '../usage-summary.js'

/** Every column, in the order `valuesOf` gives them. */
export const RUN_COLUMNS = [
  'org',
  'namespace',
  'run_id',
  'agent',
  'user_id',
  'session_id',
  'goal',
  'user_request',
  'expected_outcome',
  'environment',
  'model',
  'consumer',
  'status',
  'started_at',
  'completed_at',
  'duration_ms',
  'final_response',
  'confidence',
  'grade',
  'grade_source',
  'grade_reason',
  'grade_ref',
  'graded_at',
  'memories_used',
  'relied_on',
  'metadata',
  'budget_usd',
  'budget_seconds',
  'usage',
  'search_text',
] as const

const JSON_COLUMNS: ReadonlySet<string> = new Set(['memories_used', 'metadata', 'usage'])

/** `$1, $2::jsonb, ...` for the columns, starting at `$from`. */
export function placeholders(from = 1): string {
  return RUN_COLUMNS.map((column, i) => `$${from + i}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`).join(', ')
}

export function valuesOf(run: RunRecord): unknown[] {
  const derived = { relied_on: run.memories_used.length, search_text: searchTextOf(run) }
  return RUN_COLUMNS.map((column) => {
    const value = column in derived ? derived[column as keyof typeof derived] : run[column as keyof RunRecord]
    return JSON_COLUMNS.has(column) ? (value === null ? null : JSON.stringify(value)) : value
  })
}

/** The row as PostgreSQL sends it (bigint columns come as strings). */
export type RunRow = Record<(typeof RUN_COLUMNS)[number], unknown>

const str = (value: unknown): string => value as string
const strOrNull = (value: unknown): string | null => (value === null ? null : (value as string))
const numOrNull = (value: unknown): number | null => (value === null ? null : Number(value))

export function recordOf(row: RunRow): RunRecord {
  return {
    org: str(row.org),
    namespace: str(row.namespace),
    run_id: str(row.run_id),
    agent: str(row.agent),
    user_id: str(row.user_id),
    session_id: str(row.session_id),
    goal: str(row.goal),
    user_request: str(row.user_request),
    expected_outcome: str(row.expected_outcome),
    environment: str(row.environment),
    model: str(row.model),
    consumer: str(row.consumer),
    status: row.status as RunRecord['status'],
    started_at: Number(row.started_at),
    completed_at: numOrNull(row.completed_at),
    duration_ms: Number(row.duration_ms),
    final_response: str(row.final_response),
    confidence: Number(row.confidence),
    grade: row.grade as RunRecord['grade'],
    grade_source: strOrNull(row.grade_source),
    grade_reason: strOrNull(row.grade_reason),
    grade_ref: strOrNull(row.grade_ref),
    graded_at: numOrNull(row.graded_at),
    memories_used: row.memories_used as string[],
    metadata: row.metadata as JsonObject,
    budget_usd: Number(row.budget_usd),
    budget_seconds: Number(row.budget_seconds),
    usage: row.usage as UsageSummary | null,
  }
}
