/**
 * Flaky tests: a test whose runs on one commit both passed and failed. Nothing in the code changed
 * between those runs, so the outcome is not the code's alone. Runs without a commit are taken as runs
 * of one unknown commit (the runs of one results file are of one checkout).
 */
import type { TestRuns } from './types.js'

export interface FlakyTest {
  id: string
  /** The commit the mixed outcomes were seen on; null for runs that did not say. */
  commit: string | null
  passed: number
  failed: number
}

/** Each test and commit with both outcomes, sorted by test id, then commit. */
export function findFlaky(tests: readonly TestRuns[]): FlakyTest[] {
  const counts = new Map<string, FlakyTest>()
  for (const test of tests) {
    for (const run of test.runs) {
      const commit = run.commit ?? null
      const key = JSON.stringify([test.id, commit])
      const entry = counts.get(key) ?? { id: test.id, commit, passed: 0, failed: 0 }
      if (run.passed) entry.passed++
      else entry.failed++
      counts.set(key, entry)
    }
  }
  return [...counts.values()]
    .filter((entry) => entry.passed > 0 && entry.failed > 0)
    .sort((a, b) => compareText(a.id, b.id) || compareText(a.commit ?? '', b.commit ?? ''))
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
