/**
 * A run results file's tests as the comparison reads them (src/compare):
 * each test by its id (`<file> > <full name>`, as the quarantine file names
 * it) with its runs, each passed or not, its figures, and the commit it ran
 * on. One rule for a run's outcome, shared with the gates: a run passed
 * when it completed in a test that passed (the results do not keep a run
 * set's verdicts, so a failed test's runs all count as failed); a test
 * without a run is one run, its outcome; skipped tests are left out.
 */
import type { Run, TestRuns } from '../compare/index.js'
import type { RunResults, TestResult } from './types.js'

/** The id the comparison and the quarantine file know a test by. */
export function testId(test: TestResult): string {
  return `${test.file} > ${test.name}`
}

/** Each run of `test`, passed or not, with its figures; `commit` is the results file's. */
export function runsOfTest(test: TestResult, commit: string | null): Run[] {
  const on = commit === null ? {} : { commit }
  if (test.runs.length === 0) {
    return [{ passed: test.outcome === 'passed', ...(test.duration_ms === null ? {} : { duration_ms: test.duration_ms }), ...on }]
  }
  return test.runs.map((run) => ({
    passed: test.outcome === 'passed' && run.status === 'completed',
    ...(run.tokens === null ? {} : { tokens: run.tokens }),
    ...(run.usd === null ? {} : { usd: run.usd }),
    ...(run.duration_ms === null ? {} : { duration_ms: run.duration_ms }),
    turns: run.turns,
    tool_calls: run.tool_calls,
    ...on,
  }))
}

/** The tests of several results files (runs of one suite, or shards of runs), each test once with the runs of every file. */
export function testRunsOf(files: readonly RunResults[]): TestRuns[] {
  const byId = new Map<string, Run[]>()
  for (const results of files) {
    for (const test of results.tests) {
      if (test.outcome === 'skipped') continue
      const id = testId(test)
      byId.set(id, [...(byId.get(id) ?? []), ...runsOfTest(test, results.commit)])
    }
  }
  return [...byId].map(([id, runs]) => ({ id, runs }))
}
