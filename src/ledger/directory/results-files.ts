/**
 * The results kept by results.put in a directory store: one file per
 * results, `ledger/<org>/<namespace>/results/<results id>.results.json`
 * (beside the namespace's runs, which are `*.trace.json`, so no run reader
 * takes them for runs), written atomically as the reporter writes them.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { readTextOrNull } from '../../storage/index.js'
import { parseResults } from '../../results/results-file.js'
import type { RunResults } from '../../results/types.js'
import type { Scope } from '../identity.js'
import { ledgerFolder } from './run-files.js'

const RESULTS_FOLDER = 'results'
const RESULTS_SUFFIX = '.results.json'

function resultsFolder(dir: string, scope: Scope): string {
  return join(ledgerFolder(dir, scope.org, scope.namespace), RESULTS_FOLDER)
}

/** `resultsId` is a SHA-256 in hex: a file name as it is. */
export function resultsPath(dir: string, scope: Scope, resultsId: string): string {
  return join(resultsFolder(dir, scope), `${resultsId}${RESULTS_SUFFIX}`)
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith(RESULTS_SUFFIX))
  } catch {
    return []
  }
}

/** The namespace's results of `branch` (every branch when undefined), newest first by started_at, then results id descending. */
export function readResultsFolder(dir: string, scope: Scope, branch: string | undefined, limit: number): RunResults[] {
  const folder = resultsFolder(dir, scope)
  const kept: Array<{ id: string; results: RunResults }> = []
  for (const name of namesIn(folder)) {
    const path = join(folder, name)
    const text = readTextOrNull(path)
    if (text === null) continue
    // Written whole by results.put (atomic renames): a file that no longer parses was edited by hand, and is left out.
    let results: RunResults
    try {
      results = parseResults(path, text)
    } catch {
      continue
    }
    if (branch === undefined || results.branch === branch) kept.push({ id: name.slice(0, -RESULTS_SUFFIX.length), results })
  }
  kept.sort((a, b) => b.results.started_at - a.results.started_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return kept.slice(0, limit).map((entry) => entry.results)
}
