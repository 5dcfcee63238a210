/**
 * The comparison as the page shows it, built once here for both the static
 * report (embedded) and the viewer's server (`GET /api/comparison`): each
 * compared test with its figures, each figure's verdict in words, and both
 * sides' runs (their figures only) for the charts. Regressed tests come
 * first, as `reagent-flow compare` prints them.
 */
import { describeVerdict } from '../compare/index.js'
import type { Run, TestComparison, TestRuns, Verdict } from '../compare/index.js'
import type { ComparisonReport } from '../results/comparison-lines.js'
import type { ComparedTest, ComparisonPayload, RunFigures } from './types.js'

const VERDICT_ORDER: readonly Verdict[] = ['regressed', 'improved', 'unchanged']

/** A run without its commit: the charts need its outcome and figures only. */
function figuresOf({ commit: _commit, ...figures }: Run): RunFigures {
  return figures
}

function runsById(tests: readonly TestRuns[]): Map<string, RunFigures[]> {
  return new Map(tests.map((test) => [test.id, test.runs.map(figuresOf)]))
}

function byVerdictThenId(a: TestComparison, b: TestComparison): number {
  return VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

export function comparisonPayload(report: ComparisonReport): ComparisonPayload {
  const baselineRuns = runsById(report.runs.baseline)
  const currentRuns = runsById(report.runs.current)
  const compared = (test: TestComparison, quarantined: ComparedTest['quarantined']): ComparedTest => ({
    id: test.id,
    verdict: test.verdict,
    quarantined,
    figures: test.figures.map((figure) => ({ ...figure, verdict_text: describeVerdict(figure) })),
    baseline_runs: baselineRuns.get(test.id) ?? [],
    current_runs: currentRuns.get(test.id) ?? [],
  })
  const { comparison, split } = report
  return {
    baseline: report.baseline,
    current: report.current,
    confidence: comparison.confidence,
    correction: comparison.correction,
    tests: [
      ...[...split.gated].sort(byVerdictThenId).map((test) => compared(test, null)),
      ...split.quarantined.map(({ test, entry }) => compared(test, { reason: entry.reason, date: entry.date })),
    ],
    only_in_baseline: comparison.onlyInBaseline,
    only_in_current: comparison.onlyInCurrent,
    flaky: report.flaky,
    unmatched_quarantine: split.unmatched,
  }
}
