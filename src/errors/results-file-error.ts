import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A run results file (`reagent-flow/vitest/reporter`'s results) that cannot
 * be used: not JSON, cut short, of another results_version, or, for
 * `reagent-flow ci merge`, a shard that does not belong with the others.
 * The message names the file, what is wrong and what to do; the CLI prints
 * it on one line and exits with code 2.
 */
export class ResultsFileError extends ReagentError {
  override name = 'ResultsFileError' as const
  /** The results file, as it was given. */
  readonly file: string

  constructor(file: string, problem: string, fix: string, options?: { cause?: unknown }) {
    super(`${file} ${problem}. ${fix}.`, options)
    this.file = file
  }
}

/**
 * True for a `ResultsFileError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isResultsFileError(value: unknown): value is ResultsFileError {
  return isReagentErrorNamed(value, 'ResultsFileError')
}
