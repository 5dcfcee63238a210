/**
 * Whose golden a trace's is. A run's own, as a rule; a run of a run set
 * (`repeat(k, name, ...)`, its `repeat` field) shares the run set's golden,
 * so the k repetitions of one agent are compared with one golden and its
 * accepted variants, not each with a golden of its own.
 */
import type { TraceIdentity } from '../storage.js'
import type { Trace } from '../trace/types.js'

/** The `repeat` field of a trace recorded by `repeat()`: which run set it belongs to, and where in it. */
export interface RepeatField {
  /** The run set's id (a ULID), shared by its runs. */
  id: string
  /** The run set's name: the name given to `repeat`. Each run is named `<name> #<index>`. */
  name: string
  /** This run's number, from 1. */
  index: number
  /** How many runs the set has. */
  of: number
  /** Inside vitest, the run set's test key (its runs' keys end in ` #<index>`). */
  test_key?: string
}

/** The `repeat` field of `trace`, when it is one (a hand-edited file may hold anything). */
export function repeatOf(trace: object): RepeatField | undefined {
  const field = (trace as { repeat?: unknown }).repeat as Partial<RepeatField> | null | undefined
  if (field === null || typeof field !== 'object' || typeof field.name !== 'string' || field.name === '') return undefined
  return field as RepeatField
}

/** The identity a trace's golden is filed under: the run set's for a repeated run, else the trace's own. */
export function goldenIdentity(trace: TraceIdentity): TraceIdentity {
  const repeat = repeatOf(trace)
  if (repeat === undefined) return trace
  const key = typeof repeat.test_key === 'string' && repeat.test_key !== '' ? repeat.test_key : undefined
  return { name: repeat.name, test_file: trace.test_file, test_key: key ?? (typeof trace.test_key === 'string' ? repeat.name : trace.test_key) }
}

/** The trace's own fields, as its golden holds them: a repeated run named as its run set, without the `repeat` field. */
export function asGoldenIdentity(trace: Trace): Trace {
  const repeat = repeatOf(trace)
  if (repeat === undefined) {
    if (!('repeat' in trace)) return trace
    const { repeat: _dropped, ...rest } = trace
    return rest as Trace
  }
  const { repeat: _repeat, ...rest } = trace
  const identity = goldenIdentity(trace)
  const out = { ...rest, name: identity.name } as Trace
  if (typeof trace.test_key === 'string') out.test_key = identity.test_key
  return out
}
