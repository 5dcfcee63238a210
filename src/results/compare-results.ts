/**
 * Regression or noise, from results files: the baseline's runs and the
 * current ones read (results-source.ts), mapped onto the comparison's input
 * (test-runs.ts), compared (src/compare), split by the quarantine file, and
 * the flaky tests of both sides found. Shared by `reagent-flow compare` and
 * `ci gate --no-regressions`.
 */
import { compareTests, findFlaky, loadQuarantine, splitQuarantined } from '../compare/index.js'
import { ResultsFileError } from '../errors/index.js'
import type { ComparisonReport } from './comparison-lines.js'
import { readResultsSource, type ResultsSource } from './results-source.js'
import { testRunsOf } from './test-runs.js'

export interface CompareResultsOptions {
  /** From 0 to 1. Default: 0.95. */
  confidence?: number | undefined
  /** The quarantine file. Default: `.reagent/quarantine.json` (none is fine). */
  quarantine?: string | undefined
}

/** `baseline` is a path, or results already read (the ledger's, see ledger-baseline.ts). */
export function compareResults(baselineSource: string | ResultsSource, currentPath: string, options: CompareResultsOptions = {}): ComparisonReport {
  const baseline = typeof baselineSource === 'string' ? readResultsSource(baselineSource) : baselineSource
  const baselinePath = baseline.path
  const current = readResultsSource(currentPath)
  const before = testRunsOf(baseline.results)
  const after = testRunsOf(current.results)
  const comparison = compareTests(before, after, options.confidence === undefined ? {} : { confidence: options.confidence })
  if (comparison.tests.length === 0) {
    throw new ResultsFileError(
      currentPath,
      `shares no test with the baseline ${baselinePath} (${after.length} tests here, ${before.length} there)`,
      'Compare results of the same suite: the tests are matched by file and full name',
    )
  }
  return {
    baseline: { path: baselinePath, files: baseline.files.length },
    current: { path: currentPath, files: current.files.length },
    comparison,
    split: splitQuarantined(comparison.tests, loadQuarantine(options.quarantine)),
    flaky: findFlaky([...before, ...after]),
    runs: { baseline: before, current: after },
  }
}
