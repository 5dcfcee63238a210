/**
 * A RunRecord as a row of `reagent_ledger_runs`, and back, read from the
 * definition of a run's fields (run-fields.ts): every field but the row's
 * own is a column of its kind's type, NOT NULL unless it may be null, a
 * status or verdict CHECKed against its values; relied_on and search_text
 * are columns computed from the run as it is written.
 */
import { COLUMN_TYPES, RUN_FIELD_ENTRIES, RUN_STATUSES, VERDICTS, type ComputedColumn, type RunField, type RunFieldName } from '../run-fields.js'
import type { RunRecord } from '../run-row.js'
import { searchTextOf } from '../run-rules.js'

const COLUMN_ENTRIES = RUN_FIELD_ENTRIES.filter(([, field]) => field.only !== 'row')

/** Every column, in the order `valuesOf` gives them (the order migration 1 created them in). */
export const RUN_COLUMNS: readonly RunFieldName[] = COLUMN_ENTRIES.map(([name]) => name)

const COMPUTED: { [C in ComputedColumn]: (run: RunRecord) => unknown } = {
  relied_on: (run) => run.memories_used.length,
  search_text: searchTextOf,
}

const isJson = (field: RunField): boolean => COLUMN_TYPES[field.value] === 'jsonb'
const NUMBERS: ReadonlySet<RunField['value']> = new Set(['seconds', 'integer', 'number'])
const isNumber = (field: RunField): boolean => NUMBERS.has(field.value)
const ALLOWED: Partial<Record<RunField['value'], readonly string[]>> = { status: RUN_STATUSES, verdict: VERDICTS }

/** A column as CREATE TABLE declares it: `status text NOT NULL CHECK (status IN ('active', ...))`. */
function columnDefinition(name: string, field: RunField): string {
  const allowed = ALLOWED[field.value]
  const check = allowed === undefined ? '' : ` CHECK (${name} IN (${allowed.map((value) => `'${value}'`).join(', ')}))`
  return `${name} ${field.column ?? COLUMN_TYPES[field.value]}${field.nullable === true ? '' : ' NOT NULL'}${check}`
}

/** Every column as CREATE TABLE declares it, one a line, each line after `indent` and ending in a comma. */
export function columnDefinitions(indent: string): string {
  return COLUMN_ENTRIES.map(([name, field]) => `${indent}${columnDefinition(name, field)},`).join('\n')
}

/** `$1, $2::jsonb, ...` for the columns, starting at `$from`. */
export function placeholders(from = 1): string {
  return COLUMN_ENTRIES.map(([, field], i) => `$${from + i}${isJson(field) ? '::jsonb' : ''}`).join(', ')
}

export function valuesOf(run: RunRecord): unknown[] {
  return COLUMN_ENTRIES.map(([name, field]) => {
    const value = field.only === 'column' ? COMPUTED[name as ComputedColumn](run) : run[name as keyof RunRecord]
    return isJson(field) && value !== null ? JSON.stringify(value) : value
  })
}

/** The run as one JSON object of its columns, computed ones included (a write batch sends an array of these, see write-sql.ts). */
export function columnsOf(run: RunRecord): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const [name, field] of COLUMN_ENTRIES) row[name] = field.only === 'column' ? COMPUTED[name as ComputedColumn](run) : run[name as keyof RunRecord]
  return row
}

/** The row as PostgreSQL sends it (bigint columns come as strings). */
export type RunRow = Record<RunFieldName, unknown>

export function recordOf(row: RunRow): RunRecord {
  const record: Partial<Record<RunFieldName, unknown>> = {}
  for (const [name, field] of COLUMN_ENTRIES) {
    if (field.only === 'column') continue
    const value = row[name]
    record[name] = isNumber(field) && value !== null ? Number(value) : value
  }
  return record as RunRecord
}
