/**
 * `--baseline ledger:<branch>[@<N>]`: the last N results files of a branch,
 * as the ledger keeps them (results.list, newest first), in place of a
 * folder of CI artifacts. The ledger is REAGENT_LEDGER_URL (with
 * REAGENT_LEDGER_TOKEN), as for sessions. A ledger that cannot be reached, or
 * holds no results of the branch, is a `ResultsFileError` naming the URL and
 * the branch (one line, exit 2).
 */
import { ResultsFileError } from '../errors/index.js'
import { createLedgerClient } from '../ledger/client.js'
import { isLedgerError } from '../ledger/errors.js'
import { MAX_RESULTS_LIMIT } from '../ledger/input-schemas.js'
import { LEDGER_TOKEN_ENV, LEDGER_URL_ENV } from '../ledger/ledger-option.js'
import type { ResultsSource } from './results-source.js'

const PREFIX = 'ledger:'
/** results.list's default: main's last 20 runs. */
const DEFAULT_COUNT = 20

interface LedgerBaseline {
  branch: string
  count: number
}

/** Whether a `--baseline` names the ledger rather than a file or folder. */
export function isLedgerBaseline(baseline: string): boolean {
  return baseline.startsWith(PREFIX)
}

/** `ledger:main@20` as its branch and count; a `ResultsFileError` for a spec without a branch or with a count out of 1..200. */
function parseLedgerBaseline(spec: string): LedgerBaseline {
  const match = /^ledger:(.+?)(?:@(\d+))?$/.exec(spec)
  const count = match?.[2] === undefined ? DEFAULT_COUNT : Number(match[2])
  if (match === null || !(count >= 1 && count <= MAX_RESULTS_LIMIT)) {
    throw new ResultsFileError(
      spec,
      `is not a ledger baseline: give ledger:<branch> or ledger:<branch>@<N>, N from 1 to ${MAX_RESULTS_LIMIT}`,
      'For main’s last 20 runs: --baseline ledger:main@20',
    )
  }
  return { branch: match[1]!, count }
}

/** The last runs of the branch `spec` names, read from the ledger at REAGENT_LEDGER_URL. */
export async function readLedgerBaseline(spec: string, env: NodeJS.ProcessEnv = process.env): Promise<ResultsSource> {
  const { branch, count } = parseLedgerBaseline(spec)
  const url = env[LEDGER_URL_ENV] || undefined
  if (url === undefined) {
    throw new ResultsFileError(
      spec,
      `names the ledger, but ${LEDGER_URL_ENV} is not set`,
      `Set ${LEDGER_URL_ENV} (and ${LEDGER_TOKEN_ENV}) to the ledger's URL`,
    )
  }
  const client = createLedgerClient(url, { token: env[LEDGER_TOKEN_ENV] || undefined })
  let results: ResultsSource['results']
  try {
    results = (await client.listResults({ branch, limit: count })).results
  } catch (error) {
    if (!isLedgerError(error)) throw error
    const detail = error.message.slice(error.message.lastIndexOf('(') + 1, -1)
    const what =
      error.status === null
        ? `no answer from the ledger at ${client.url} for branch "${branch}" (${detail})`
        : `the ledger at ${client.url} refused results.list of branch "${branch}" (${error.status} ${error.body === null ? '' : `${error.body.error}: ${error.body.message}`})`
    throw new ResultsFileError(
      spec,
      `could not be read: ${what}`,
      error.status === null
        ? `Start the ledger (reagent-flow serve), or set ${LEDGER_URL_ENV} to where it runs`
        : `Check ${LEDGER_URL_ENV} and ${LEDGER_TOKEN_ENV} (a token of that ledger's namespace)`,
      { cause: error },
    )
  }
  if (results.length === 0) {
    throw new ResultsFileError(
      spec,
      `holds no results: the ledger at ${client.url} has none of branch "${branch}"`,
      'Upload the results of that branch’s builds with reagent-flow ci upload <results>',
    )
  }
  return { path: spec, files: results.map((_, index) => `${spec}#${index + 1}`), results }
}
