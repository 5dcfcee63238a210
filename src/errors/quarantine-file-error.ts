import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A quarantine file that cannot be used: not JSON, not the shape, or an entry without its test, its
 * reason or a real date. The message names the file, the entry (counted from 0) and what to write.
 */
export class QuarantineFileError extends ReagentError {
  override name = 'QuarantineFileError' as const
  readonly path: string
  /** The entry at fault in the file's `tests`, counted from 0; undefined when the file as a whole is. */
  readonly entry: number | undefined

  constructor(path: string, problem: string, entry?: number) {
    const where = entry === undefined ? path : `${path}, entry ${entry} of "tests"`
    super(
      `${where}: ${problem}. Each quarantined test is { "test": "<file> > <full name>", "reason": "why it is kept out of the gate", "date": "YYYY-MM-DD" } in the file's "tests" array; fix or remove the entry.`,
    )
    this.path = path
    this.entry = entry
  }
}

/**
 * True for a `QuarantineFileError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isQuarantineFileError(value: unknown): value is QuarantineFileError {
  return isReagentErrorNamed(value, 'QuarantineFileError')
}
