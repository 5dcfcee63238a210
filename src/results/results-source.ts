/**
 * Where `reagent-flow compare` and `ci gate --no-regressions` read runs
 * from: a results file, or a folder of them (the results of earlier runs,
 * such as CI artifacts of main's last builds, each in a folder of its own).
 * In a folder, every `results*.json` at any depth is read: `results.json`
 * and the shards' `results.shard-<i>-of-<n>.json`. Give a folder either the
 * shards of a run or their merged file, not both: the tests would count twice.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ResultsFileError } from '../errors/index.js'
import { readResultsFile } from './results-file.js'
import type { RunResults } from './types.js'

export interface ResultsSource {
  /** The path as it was given. */
  path: string
  /** The results files read, sorted. */
  files: string[]
  results: RunResults[]
}

const RESULTS_NAME = /^results.*\.json$/

function resultsFilesUnder(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .filter((relative) => RESULTS_NAME.test(relative.slice(relative.lastIndexOf('/') + 1)))
    .map((relative) => join(folder, relative))
    .filter((file) => statSync(file).isFile())
    .sort()
}

/** The results at `path`, each file checked (a `ResultsFileError` naming the first bad one). */
export function readResultsSource(path: string): ResultsSource {
  let isFolder: boolean
  try {
    isFolder = statSync(path).isDirectory()
  } catch {
    throw new ResultsFileError(path, 'does not exist', 'Give a results file, or a folder of the results files of earlier runs')
  }
  const files = isFolder ? resultsFilesUnder(path) : [path]
  if (files.length === 0) {
    throw new ResultsFileError(
      path,
      'holds no results file (results*.json, at any depth)',
      'Give a folder of the results files the reporter wrote (.reagent/results/)',
    )
  }
  return { path, files, results: files.map(readResultsFile) }
}
