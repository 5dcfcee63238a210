/** How the goldens a test compared or wrote ended, for the run's summary (reporter.ts) and its results file (run-results.ts). */
import type { GoldenEntry } from '../session/test-scope.js'
import type { GoldenOutcome } from '../results/types.js'

type Outcome = GoldenEntry['outcome']

/** The first of these a golden had in a test is how it is counted. */
const OUTCOME_WEIGHT: readonly Outcome[] = ['written', 'updated', 'reformatted', 'missing', 'failed', 'unchanged', 'matched']

/**
 * One outcome per golden file of a test. A test may compare several runs
 * with one golden (the runs of a `repeat()`, through toPassInAtLeast): the
 * golden counts once, as written or updated if it was, and as failed only
 * when the test failed too (a run set may pass with some runs off its golden).
 */
export function goldenOutcomes(entries: readonly GoldenEntry[], testPassed: boolean): GoldenEntry[] {
  const byPath = new Map<string, Outcome[]>()
  for (const { path, outcome } of entries) byPath.set(path, [...(byPath.get(path) ?? []), outcome])
  return [...byPath].map(([path, outcomes]) => {
    const counted = outcomes.length > 1 && testPassed ? outcomes.filter((outcome) => outcome !== 'failed') : outcomes
    return { path, outcome: OUTCOME_WEIGHT.find((outcome) => counted.includes(outcome)) ?? outcomes[0]! }
  })
}

/** Each golden outcome as the results file says it: a missing golden failed, a format update or an unchanged rewrite is an update or a match. */
const RESULT_OF: Readonly<Record<Outcome, GoldenOutcome>> = {
  failed: 'failed',
  missing: 'failed',
  written: 'written',
  updated: 'updated',
  reformatted: 'updated',
  unchanged: 'matched',
  matched: 'matched',
}

/** The results file's one golden outcome of a test: the first of failed, written, updated, matched that one of its goldens had; none without goldens. */
export function testGoldenOutcome(entries: readonly GoldenEntry[], testPassed: boolean): GoldenOutcome {
  const outcomes = new Set(goldenOutcomes(entries, testPassed).map((entry) => RESULT_OF[entry.outcome]))
  return (['failed', 'written', 'updated', 'matched'] as const).find((outcome) => outcomes.has(outcome)) ?? 'none'
}
