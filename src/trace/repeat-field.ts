/**
 * The `repeat` field of the traces of a run set (`repeat()`): an extra
 * top-level key, which format "1" allows on a Trace and reagent-flow 0.5
 * reads past. `reagent-flow list` groups runs by it; goldens are filed by it.
 */

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
  if (field === null || typeof field !== 'object') return undefined
  const { id, name, index, of } = field
  const isCount = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1
  if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '' || !isCount(index) || !isCount(of)) return undefined
  return field as RepeatField
}
