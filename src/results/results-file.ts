/**
 * Reading and writing run results files. Writes go through storage (atomic:
 * a reader never sees half a file); a file read back is checked in this
 * order, so the message names the first thing to fix: JSON at all (a file
 * cut short by a full disk or a cancelled upload), its results_version, then
 * the schema (ajv, through the project's one owner of it).
 */
import { ResultsFileError } from '../errors/index.js'
import { readTextOrNull, writeFileAtomic } from '../storage/index.js'
import { compileJsonSchema } from '../trace/validate.js'
import resultsSchema from './results.schema.json' with { type: 'json' }
import { RESULTS_VERSION, type RunResults } from './types.js'

/** The results as written: 2-space indent, a trailing newline (a file to diff, and to read in a CI log). */
export function renderResults(results: RunResults): string {
  return `${JSON.stringify(results, null, 2)}\n`
}

/** Writes `results` to `path` atomically (its directory made). */
export function writeResultsFile(path: string, results: RunResults): void {
  writeFileAtomic(path, renderResults(results))
}

const REWRITE = 'Pass the file reagent-flow/vitest/reporter wrote (its results option), or run the tests again to write it'

function versionOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { results_version?: unknown }).results_version : undefined
}

/** The results in `text`, checked; `file` names them in errors. */
export function parseResults(file: string, text: string): RunResults {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ResultsFileError(file, `is not a complete JSON file (${reason}): it was cut short or is not a results file`, REWRITE, { cause: error })
  }
  return checkResults(file, value)
}

/** `value` (parsed JSON) as results, checked: its results_version, then the schema; `file` names them in errors. */
export function checkResults(file: string, value: unknown): RunResults {
  const version = versionOf(value)
  if (version === undefined) throw new ResultsFileError(file, 'has no results_version: it is not a reagent-flow results file', REWRITE)
  if (version !== RESULTS_VERSION) {
    throw new ResultsFileError(
      file,
      `has results_version ${JSON.stringify(version)}; this reagent-flow reads results_version ${RESULTS_VERSION}`,
      'Read it with the reagent-flow version that wrote it, or run the tests again with this one',
    )
  }
  const validate = compileJsonSchema(resultsSchema)
  if (!validate(value)) {
    const first = validate.errors?.[0]
    const where = first === undefined || first.instancePath === '' ? 'the top level' : first.instancePath
    throw new ResultsFileError(file, `is not a valid results file: ${where} ${first?.message ?? 'breaks the schema'}`, REWRITE)
  }
  return value as RunResults
}

/** The results file `file`, read and checked (a `ResultsFileError` naming it otherwise). */
export function readResultsFile(file: string): RunResults {
  const text = readTextOrNull(file)
  if (text === null) throw new ResultsFileError(file, 'does not exist', REWRITE)
  return parseResults(file, text)
}
