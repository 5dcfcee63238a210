/**
 * The run row: one run of the ledger as every operation returns it, and the
 * RunRecord a store keeps, both read from the one definition of a run's
 * fields (run-fields.ts). `run.list`'s `fields` is checked against the row's
 * JSON Schema (RUN_ROW_SCHEMA).
 *
 * A store keeps a RunRecord: the row's stored fields with the run's identity
 * (org, namespace), its times as epoch seconds (both stores order by them to
 * the microsecond) and what its trace used (for cost); `toRunRow` turns one
 * into the row.
 */
import {
  RUN_FIELD_ENTRIES,
  type RUN_FIELDS,
  rowOnlyValue,
  type RowField,
  type RunFieldName,
  type RunRecord,
  type StoredField,
  type StoredValue,
} from './run-fields.js'

export { RUN_STATUSES, type RunRecord, type RunStatus, type Verdict } from './run-fields.js'

type Fields = typeof RUN_FIELDS

/** A field's value in the row: a time as ISO UTC text with a Z, everything else as stored. */
type RowValue<F> = F extends { value: 'seconds' } ? string | (F extends { nullable: true } ? null : never) : StoredValue<F>

/** A run as the operations return it; times are ISO UTC with a Z (completed_at is null while active, duration_ms 0). */
export type RunRow = { [K in RowField]: RowValue<Fields[K]> }

type RowSchemas = { [K in RowField]: Fields[K]['row'] }

function rowSchemas(): RowSchemas {
  const properties: Partial<Record<RunFieldName, object>> = {}
  for (const [name, field] of RUN_FIELD_ENTRIES) if (field.row !== undefined) properties[name] = field.row
  return properties as RowSchemas
}

/** The run row in JSON Schema: `run.list`'s `fields` names properties of it. */
export const RUN_ROW_SCHEMA = {
  $id: 'https://reagent-flow.dev/schema/ledger/run-row.json',
  title: 'RunRow',
  type: 'object',
  additionalProperties: false,
  properties: rowSchemas(),
} as const

export type RunRowField = keyof typeof RUN_ROW_SCHEMA.properties
export const RUN_ROW_FIELDS = Object.keys(RUN_ROW_SCHEMA.properties) as RunRowField[]

/** Epoch seconds as ISO UTC with a Z (to the millisecond). */
export function isoTimeOf(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString()
}

/** How each row field is read from a stored run, in row order: worked out once, as run.list turns up to 200 runs into rows a call. */
const ROW_READS = RUN_FIELD_ENTRIES.flatMap(([name, field]) =>
  field.row === undefined
    ? []
    : [{ name, read: field.only === 'row' ? ('row only' as const) : field.value === 'seconds' ? ('time' as const) : ('as stored' as const) }],
)
/** Every row field in order: each row starts as a copy, so its keys come in this order and setting them adds none. */
const ROW_KEYS: Readonly<Record<string, unknown>> = Object.fromEntries(ROW_READS.map(({ name }) => [name, null]))

/** The row of a stored run: its row fields in order, times as ISO text, the row's own fields as they always are. */
export function toRunRow(record: RunRecord): RunRow {
  const row: Record<string, unknown> = { ...ROW_KEYS }
  for (const { name, read } of ROW_READS) {
    if (read === 'row only') row[name] = rowOnlyValue(name)
    else {
      const value = record[name as StoredField]
      row[name] = read === 'time' && value !== null ? isoTimeOf(value as number) : value
    }
  }
  return row as RunRow
}

/** The row with only `fields`, in the order given. */
export function projectRow(row: RunRow, fields: readonly RunRowField[] | undefined): Partial<RunRow> {
  if (fields === undefined) return row
  const out: Partial<Record<RunRowField, unknown>> = {}
  for (const field of fields) out[field] = row[field]
  return out as Partial<RunRow>
}
