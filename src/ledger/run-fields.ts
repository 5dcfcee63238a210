/**
 * The ledger's run, defined once: every field a run has, in the order both
 * stores write it, with what it holds, whether it may be null, the value it
 * has until something sets it, and where it shows. Read by the run row the
 * operations return (run-row.ts: its type and JSON Schema), by the rules
 * that open a run (run-rules.ts) and a trace file's run (directory/run-files.ts),
 * and by PostgreSQL's columns and migrations (postgres/run-columns.ts).
 *
 * The order is the files' bytes: the directory store writes a run as a JSON
 * object under `ledger` in this order, and PostgreSQL's released migration 1
 * created the columns in this order (test/ledger/run-fields.test.ts holds
 * both to what they were).
 */
import type { JsonObject } from '../trace/types.js'
import type { UsageSummary } from './usage-summary.js'

export const RUN_STATUSES = ['active', 'completed', 'failed', 'cancelled'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]
export const CLOSED_STATUSES = ['completed', 'failed', 'cancelled'] as const
export const VERDICTS = ['pass', 'fail'] as const
export type Verdict = (typeof VERDICTS)[number]

/** What a field holds, as a store keeps it (a time is epoch seconds, to the microsecond; the row shows it as ISO text). */
export interface RunValues {
  text: string
  status: RunStatus
  verdict: Verdict
  seconds: number
  integer: number
  number: number
  keys: string[]
  object: JsonObject
  usage: UsageSummary
}

export interface RunField {
  readonly value: keyof RunValues
  /** May be null (then null until something sets it). */
  readonly nullable?: true
  /** The field in the run row the operations return, as JSON Schema; a field without one is the store's only. */
  readonly row?: object
  /**
   * Where the field lives when not on every level (a store's run, its column, the row):
   * `row`: only in the row, never stored; `column`: only a PostgreSQL column, computed from the run when written.
   */
  readonly only?: 'row' | 'column'
  /** Its PostgreSQL type where it is not its kind's (COLUMN_TYPES). */
  readonly column?: ColumnType
}

type ColumnType = 'text' | 'double precision' | 'bigint' | 'integer' | 'jsonb'

/** A field's column in `reagent_ledger_runs` has its kind's type (a count such as relied_on says its own). */
export const COLUMN_TYPES: { readonly [V in keyof RunValues]: ColumnType } = {
  text: 'text',
  status: 'text',
  verdict: 'text',
  seconds: 'double precision',
  integer: 'bigint',
  number: 'double precision',
  keys: 'jsonb',
  object: 'jsonb',
  usage: 'jsonb',
}

const text = { type: 'string' } as const
const textOrNull = { type: ['string', 'null'] } as const
const isoTime = { type: 'string', description: 'ISO 8601, UTC, with a Z' } as const
const isoTimeOrNull = { ...isoTime, type: ['string', 'null'] } as const

export const RUN_FIELDS = {
  org: { value: 'text' },
  namespace: { value: 'text' },
  run_id: { value: 'text', row: { ...text, description: 'The run id (a ULID when the server minted it).' } },
  agent: { value: 'text', row: { ...text, description: 'The agent that ran; for a run session() wrote, the trace name.' } },
  user_id: { value: 'text', row: { ...text, description: "The end user; '-' for none." } },
  session_id: { value: 'text', row: { ...text, description: "The conversation; '-' for none." } },
  goal: { value: 'text', row: { ...text, description: 'What the run set out to do.' } },
  user_request: { value: 'text', row: text },
  expected_outcome: { value: 'text', row: text },
  environment: { value: 'text', row: text },
  model: { value: 'text', row: text },
  consumer: { value: 'text', row: text },
  status: { value: 'status', row: { enum: [...RUN_STATUSES] } },
  started_at: { value: 'seconds', row: isoTime },
  completed_at: { value: 'seconds', nullable: true, row: isoTimeOrNull },
  duration_ms: { value: 'integer', row: { type: 'integer', minimum: 0, description: '0 while active.' } },
  final_response: { value: 'text', row: text },
  confidence: { value: 'number', row: { type: 'number' } },
  grade: { value: 'verdict', nullable: true, row: { enum: [...VERDICTS, null] } },
  grade_source: { value: 'text', nullable: true, row: textOrNull },
  grade_reason: { value: 'text', nullable: true, row: textOrNull },
  grade_ref: { value: 'text', nullable: true, row: textOrNull },
  graded_at: { value: 'seconds', nullable: true, row: isoTimeOrNull },
  memories_used: { value: 'keys', row: { type: 'array', items: text } },
  memories_written: {
    value: 'keys',
    only: 'row',
    row: { type: 'array', items: text, description: 'Always empty: this ledger has no memory store.' },
  },
  /** The number of memories_used, for run.list's order by `relied_on`. */
  relied_on: { value: 'integer', only: 'column', column: 'integer' },
  metadata: { value: 'object', row: { type: 'object' } },
  budget_usd: { value: 'number', row: { type: 'number', minimum: 0 } },
  budget_seconds: { value: 'integer', row: { type: 'integer', minimum: 0 } },
  /** What the run's trace used, once there is one (see usage-summary.ts). */
  usage: { value: 'usage', nullable: true },
  /** What run.list's `q` searches, lower-cased by the server (not by the database's locale). */
  search_text: { value: 'text', only: 'column' },
} as const satisfies Record<string, RunField>

type Fields = typeof RUN_FIELDS
export type RunFieldName = keyof Fields

/** A field's value in a store: its kind, or null where it may be. */
export type StoredValue<F> = F extends { value: infer V extends keyof RunValues } ? RunValues[V] | (F extends { nullable: true } ? null : never) : never

/** The fields of a run as a store keeps it: all but the row's and the columns' own. */
export type StoredField = { [K in RunFieldName]: Fields[K] extends { only: string } ? never : K }[RunFieldName]
/** The fields of the run row. */
export type RowField = { [K in RunFieldName]: Fields[K] extends { row: object } ? K : never }[RunFieldName]
/** The columns computed from the run when it is written. */
export type ComputedColumn = { [K in RunFieldName]: Fields[K] extends { only: 'column' } ? K : never }[RunFieldName]

/** What a field of each kind holds until something sets it, where it may not be null (a new array or object each time). */
const BLANKS: { [V in keyof RunValues]: () => unknown } = {
  text: () => '',
  status: (): RunStatus => 'active',
  // A verdict and a usage summary are only ever nullable fields (grade, usage): null until given.
  verdict: () => null,
  seconds: () => 0,
  integer: () => 0,
  number: () => 0,
  keys: () => [],
  object: () => ({}),
  usage: () => null,
}

/** What a field holds until something sets it: null where it may be null, else the empty value of its kind. */
function blankOf(field: RunField): unknown {
  return field.nullable === true ? null : BLANKS[field.value]()
}

/** The entries of RUN_FIELDS, in order. */
export const RUN_FIELD_ENTRIES = Object.entries(RUN_FIELDS) as readonly (readonly [RunFieldName, RunField])[]

/** A run as a store keeps it (the directory store's `ledger` object, a row of PostgreSQL's columns). */
export type RunRecord = { [K in StoredField]: StoredValue<Fields[K]> }

/**
 * A run with every stored field blank, in the order of RUN_FIELDS: the base
 * every new run is spread over, so that whoever makes one sets only what it
 * knows and the keys come out in the one order.
 */
export function blankRun(): RunRecord {
  const run: Record<string, unknown> = {}
  for (const [name, field] of RUN_FIELD_ENTRIES) if (field.only === undefined) run[name] = blankOf(field)
  return run as RunRecord
}

/** The value a row-only field always shows (this ledger has no memory store: memories_written is empty). */
export function rowOnlyValue(name: RunFieldName): unknown {
  return blankOf(RUN_FIELDS[name])
}
