/**
 * The operations' inputs as the service holds them once ajv has checked a
 * body against its schema and filled every default (validate-input.ts):
 * derived from input-schemas.ts with json-schema-to-ts's `FromSchema`, so a
 * field, its type, its enum and whether it always has a value are written
 * once, in the schema ([052](../../docs/decisions/052-ledger-types-from-schemas.md)).
 *
 * Types only: json-schema-to-ts is a dev dependency, and none of these types
 * reaches a public entry's declarations (the client's input types,
 * input-types.ts, are the published ones, checked against the schemas by
 * test/ledger/input-types.test-d.ts).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { JsonObject } from '../trace/types.js'
import type {
  RUN_BEGIN_INPUT,
  RUN_COMPLETE_INPUT,
  RUN_GET_INPUT,
  RUN_GRADE_INPUT,
  RUN_LIST_INPUT,
  TRACE_GET_INPUT,
  TRACE_PUT_INPUT,
  RESULTS_PUT_INPUT,
  RESULTS_LIST_INPUT,
  RUN_STATS_INPUT,
  RUN_PRUNE_INPUT,
} from './input-schemas.js'

/** Without the `[x: string]: unknown` that FromSchema adds for the fields a schema allows but does not name (they are `ignored_args`). */
type NamedFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] }

/** A body is parsed JSON: an object field (`{ type: 'object' }`, FromSchema's `{ [x: string]: unknown }`) holds JSON. */
type JsonFields<T> = { [K in keyof T]: T[K] extends infer V ? (V extends { [x: string]: unknown } ? JsonObject : V) : never }

/** An input schema's fields, checked and with their defaults filled. */
type Checked<S extends JSONSchema> = JsonFields<NamedFields<FromSchema<S>>>

export type BeginInput = Checked<typeof RUN_BEGIN_INPUT>
export type CompleteInput = Checked<typeof RUN_COMPLETE_INPUT>
export type GradeInput = Checked<typeof RUN_GRADE_INPUT>
export type ListInput = Checked<typeof RUN_LIST_INPUT>

/** Each operation's input, checked and with its defaults filled (one entry per key of OPERATION_INPUTS). */
export interface CheckedInputs {
  'run.begin': BeginInput
  'run.complete': CompleteInput
  'run.get': Checked<typeof RUN_GET_INPUT>
  'run.grade': GradeInput
  'run.list': ListInput
  'trace.put': Checked<typeof TRACE_PUT_INPUT>
  'trace.get': Checked<typeof TRACE_GET_INPUT>
  'results.put': Checked<typeof RESULTS_PUT_INPUT>
  'results.list': Checked<typeof RESULTS_LIST_INPUT>
  'run.stats': Checked<typeof RUN_STATS_INPUT>
  'run.prune': Checked<typeof RUN_PRUNE_INPUT>
}

/** What a grade sets on a run: run.grade's verdict fields. */
export type GradeVerdict = Pick<GradeInput, 'grade' | 'source' | 'reason' | 'ref'>
