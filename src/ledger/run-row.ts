/**
 * The run row: one run of the ledger as every operation returns it, defined
 * once in JSON Schema (RUN_ROW_SCHEMA) from the fields `run.begin`,
 * `run.complete` and `run.grade` take, plus `completed_at`, `duration_ms`
 * and the grade fields. `run.list`'s `fields` is checked against it.
 *
 * Stores keep a RunRecord: the row with its identity (org, namespace), its
 * times as epoch seconds (both stores order by them to the microsecond) and
 * what its trace used (for cost); `toRunRow` turns one into the row.
 */
import type { JsonObject } from '../trace/types.js'
import type { UsageSummary } from './usage-summary.js'

export const RUN_STATUSES = ['active', 'completed', 'failed', 'cancelled'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]
export const CLOSED_STATUSES = ['completed', 'failed', 'cancelled'] as const
export const VERDICTS = ['pass', 'fail'] as const
export type Verdict = (typeof VERDICTS)[number]

/** A run as the operations return it; times are ISO UTC with a Z. */
export interface RunRow {
  run_id: string
  agent: string
  user_id: string
  session_id: string
  goal: string
  user_request: string
  expected_outcome: string
  environment: string
  model: string
  consumer: string
  status: RunStatus
  started_at: string
  /** Null while active. */
  completed_at: string | null
  /** 0 while active. */
  duration_ms: number
  final_response: string
  confidence: number
  grade: Verdict | null
  grade_source: string | null
  grade_reason: string | null
  grade_ref: string | null
  graded_at: string | null
  memories_used: string[]
  memories_written: string[]
  metadata: JsonObject
  budget_usd: number
  budget_seconds: number
}

/** A run as a store keeps it. */
export interface RunRecord extends Omit<RunRow, 'started_at' | 'completed_at' | 'graded_at' | 'memories_written'> {
  org: string
  namespace: string
  /** Epoch seconds, to the microsecond. */
  started_at: number
  completed_at: number | null
  graded_at: number | null
  /** What the run's trace used, once there is one (see usage-summary.ts). */
  usage: UsageSummary | null
}

const text = { type: 'string' } as const
const textOrNull = { type: ['string', 'null'] } as const
const isoTime = { type: 'string', description: 'ISO 8601, UTC, with a Z' } as const

/** The run row in JSON Schema: `run.list`'s `fields` names properties of it. */
export const RUN_ROW_SCHEMA = {
  $id: 'https://reagent-flow.dev/schema/ledger/run-row.json',
  title: 'RunRow',
  type: 'object',
  additionalProperties: false,
  properties: {
    run_id: { ...text, description: 'The run id (a ULID when the server minted it).' },
    agent: { ...text, description: 'The agent that ran; for a run session() wrote, the trace name.' },
    user_id: { ...text, description: "The end user; '-' for none." },
    session_id: { ...text, description: "The conversation; '-' for none." },
    goal: { ...text, description: 'What the run set out to do.' },
    user_request: text,
    expected_outcome: text,
    environment: text,
    model: text,
    consumer: text,
    status: { enum: [...RUN_STATUSES] },
    started_at: isoTime,
    completed_at: { ...isoTime, type: ['string', 'null'] },
    duration_ms: { type: 'integer', minimum: 0, description: '0 while active.' },
    final_response: text,
    confidence: { type: 'number' },
    grade: { enum: [...VERDICTS, null] },
    grade_source: textOrNull,
    grade_reason: textOrNull,
    grade_ref: textOrNull,
    graded_at: { ...isoTime, type: ['string', 'null'] },
    memories_used: { type: 'array', items: text },
    memories_written: { type: 'array', items: text, description: 'Always empty: this ledger has no memory store.' },
    metadata: { type: 'object' },
    budget_usd: { type: 'number', minimum: 0 },
    budget_seconds: { type: 'integer', minimum: 0 },
  },
} as const

export type RunRowField = keyof typeof RUN_ROW_SCHEMA.properties
export const RUN_ROW_FIELDS = Object.keys(RUN_ROW_SCHEMA.properties) as RunRowField[]

/** Epoch seconds as ISO UTC with a Z (to the millisecond). */
export function isoTimeOf(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString()
}

export function toRunRow(record: RunRecord): RunRow {
  return {
    run_id: record.run_id,
    agent: record.agent,
    user_id: record.user_id,
    session_id: record.session_id,
    goal: record.goal,
    user_request: record.user_request,
    expected_outcome: record.expected_outcome,
    environment: record.environment,
    model: record.model,
    consumer: record.consumer,
    status: record.status,
    started_at: isoTimeOf(record.started_at),
    completed_at: record.completed_at === null ? null : isoTimeOf(record.completed_at),
    duration_ms: record.duration_ms,
    final_response: record.final_response,
    confidence: record.confidence,
    grade: record.grade,
    grade_source: record.grade_source,
    grade_reason: record.grade_reason,
    grade_ref: record.grade_ref,
    graded_at: record.graded_at === null ? null : isoTimeOf(record.graded_at),
    memories_used: record.memories_used,
    memories_written: [],
    metadata: record.metadata,
    budget_usd: record.budget_usd,
    budget_seconds: record.budget_seconds,
  }
}

/** The row with only `fields`, in the order given. */
export function projectRow(row: RunRow, fields: readonly RunRowField[] | undefined): Partial<RunRow> {
  if (fields === undefined) return row
  const out: Partial<Record<RunRowField, unknown>> = {}
  for (const field of fields) out[field] = row[field]
  return out as Partial<RunRow>
}
