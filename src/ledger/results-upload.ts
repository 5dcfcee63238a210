/**
 * Results sent with results.put: checked as `reagent-flow compare` checks a
 * results file it reads (results-file.ts: results_version first, then the
 * schema), so a ledger never serves a baseline that a reader would refuse. A
 * bad one is a 422 whose rule says which check failed. The results' key is
 * the SHA-256 of their JSON text: the same results put twice are one entry.
 */
import { createHash } from 'node:crypto'
import { ResultsFileError } from '../errors/index.js'
import { checkResults } from '../results/results-file.js'
import { RESULTS_VERSION, type RunResults } from '../results/types.js'
import { LedgerRequestError } from './errors.js'

export function checkedResults(value: unknown): RunResults {
  try {
    return checkResults('results.put: results', value)
  } catch (error) {
    if (!(error instanceof ResultsFileError)) throw error
    const rule = (value as { results_version?: unknown }).results_version === RESULTS_VERSION ? 'schema' : 'results_version'
    throw new LedgerRequestError('invalid_input', `${error.message.replace(/\.$/, '')} (rule: ${rule})`, { field: 'results', rule })
  }
}

export function resultsIdOf(results: RunResults): string {
  return createHash('sha256').update(JSON.stringify(results), 'utf8').digest('hex')
}
