/**
 * Type test of the ledger client's input types (`reagent-flow/ledger`),
 * checked by `npm run typecheck`, never run: each one names the fields of its
 * operation's schema (input-schemas.ts), no more and no fewer, leaves out
 * exactly the fields the server fills (a default, or org and namespace from
 * the token), and accepts only what the schema accepts. The published types
 * are written out rather than derived, so that their declarations need no
 * json-schema-to-ts (decision 052); this is what keeps them equal to the schemas.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import { expectTypeOf } from 'vitest'
import type {
  RESULTS_LIST_INPUT,
  RESULTS_PUT_INPUT,
  RUN_BEGIN_INPUT,
  RUN_COMPLETE_INPUT,
  RUN_GET_INPUT,
  RUN_GRADE_INPUT,
  RUN_LIST_INPUT,
  RUN_PRUNE_INPUT,
  RUN_STATS_INPUT,
  TRACE_PUT_INPUT,
} from '../../src/ledger/input-schemas.js'
import type {
  ResultsListInput,
  ResultsPutInput,
  RunBeginInput,
  RunCompleteInput,
  RunGetInput,
  RunGradeInput,
  RunListInput,
  RunPruneInput,
  RunStatsInput,
  TracePutInput,
} from '../../src/ledger/input-types.js'

type NamedFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] }
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T]

/** What a client may send for schema `S`: fields with a default may be left out, and the ones in `Filled`, which the server fills. */
type Sendable<S extends JSONSchema, Filled extends string = 'org' | 'namespace'> =
  NamedFields<FromSchema<S, { keepDefaultedPropertiesOptional: true }>> extends infer T ? Omit<T, Filled> & Partial<Pick<T, Filled & keyof T>> : never

// Each pair: the same fields, the same ones optional, and no value the schema refuses.
type Begin = Sendable<typeof RUN_BEGIN_INPUT, 'org' | 'namespace' | 'agent'>
expectTypeOf<keyof RunBeginInput>().toEqualTypeOf<keyof Begin>()
expectTypeOf<OptionalKeys<RunBeginInput>>().toEqualTypeOf<OptionalKeys<Begin>>()
expectTypeOf<RunBeginInput>().toExtend<Begin>()

type Complete = Sendable<typeof RUN_COMPLETE_INPUT>
expectTypeOf<keyof RunCompleteInput>().toEqualTypeOf<keyof Complete>()
expectTypeOf<OptionalKeys<RunCompleteInput>>().toEqualTypeOf<OptionalKeys<Complete>>()
expectTypeOf<RunCompleteInput>().toExtend<Complete>()

type Get = Sendable<typeof RUN_GET_INPUT>
expectTypeOf<keyof RunGetInput>().toEqualTypeOf<keyof Get>()
expectTypeOf<OptionalKeys<RunGetInput>>().toEqualTypeOf<OptionalKeys<Get>>()
expectTypeOf<RunGetInput>().toExtend<Get>()

type Grade = Sendable<typeof RUN_GRADE_INPUT>
expectTypeOf<keyof RunGradeInput>().toEqualTypeOf<keyof Grade>()
expectTypeOf<OptionalKeys<RunGradeInput>>().toEqualTypeOf<OptionalKeys<Grade>>()
expectTypeOf<RunGradeInput>().toExtend<Grade>()

type List = Sendable<typeof RUN_LIST_INPUT>
expectTypeOf<keyof RunListInput>().toEqualTypeOf<keyof List>()
expectTypeOf<OptionalKeys<RunListInput>>().toEqualTypeOf<OptionalKeys<List>>()
expectTypeOf<RunListInput>().toExtend<List>()

type Stats = Sendable<typeof RUN_STATS_INPUT>
expectTypeOf<keyof RunStatsInput>().toEqualTypeOf<keyof Stats>()
expectTypeOf<OptionalKeys<RunStatsInput>>().toEqualTypeOf<OptionalKeys<Stats>>()
expectTypeOf<RunStatsInput>().toExtend<Stats>()

type Prune = Sendable<typeof RUN_PRUNE_INPUT>
expectTypeOf<keyof RunPruneInput>().toEqualTypeOf<keyof Prune>()
expectTypeOf<OptionalKeys<RunPruneInput>>().toEqualTypeOf<OptionalKeys<Prune>>()
expectTypeOf<RunPruneInput>().toExtend<Prune>()

// The client takes the trace itself, as putTrace's second argument.
type Put = Omit<Sendable<typeof TRACE_PUT_INPUT>, 'trace'>
expectTypeOf<keyof TracePutInput>().toEqualTypeOf<keyof Put>()
expectTypeOf<OptionalKeys<TracePutInput>>().toEqualTypeOf<OptionalKeys<Put>>()
expectTypeOf<TracePutInput>().toExtend<Put>()

// The client takes the results themselves, as putResults's first argument.
type PutResults = Omit<Sendable<typeof RESULTS_PUT_INPUT>, 'results'>
expectTypeOf<keyof ResultsPutInput>().toEqualTypeOf<keyof PutResults>()
expectTypeOf<OptionalKeys<ResultsPutInput>>().toEqualTypeOf<OptionalKeys<PutResults>>()
expectTypeOf<ResultsPutInput>().toExtend<PutResults>()

type ListResults = Sendable<typeof RESULTS_LIST_INPUT>
expectTypeOf<keyof ResultsListInput>().toEqualTypeOf<keyof ListResults>()
expectTypeOf<OptionalKeys<ResultsListInput>>().toEqualTypeOf<OptionalKeys<ListResults>>()
expectTypeOf<ResultsListInput>().toExtend<ListResults>()
