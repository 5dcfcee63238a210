/**
 * Regression or noise: each test both sides ran, each figure compared (pass rate by Fisher's exact
 * test, numeric figures by the Mann–Whitney U test), the p-values of all figures of all tests adjusted
 * together by Benjamini–Hochberg, and a verdict per figure and per test (note 063, docs/ci.md).
 */
import { UsageError } from '../errors/usage-error.js'
import { adjustBenjaminiHochberg } from './benjamini-hochberg.js'
import { type Unjudged, comparePassRate, compareValues } from './compare-figures.js'
import {
  type CompareOptions,
  type Comparison,
  type FigureComparison,
  type MedianComparison,
  NUMERIC_FIGURES,
  type PassRateComparison,
  type Run,
  type TestComparison,
  type TestRuns,
  type Verdict,
} from './types.js'

type UnjudgedFigure = Unjudged<PassRateComparison> | Unjudged<MedianComparison>

/**
 * Compares the current runs of each test with the baseline's. A test listed twice on a side has its
 * runs put together; tests only one side ran are listed apart.
 *
 * @example
 * const { tests } = compareTests(
 *   [{ id: 'agent.test.ts > refunds', runs: mainRuns }],
 *   [{ id: 'agent.test.ts > refunds', runs: branchRuns }],
 * )
 * tests[0]?.verdict // 'regressed' | 'improved' | 'unchanged'
 */
export function compareTests(baseline: readonly TestRuns[], current: readonly TestRuns[], options: CompareOptions = {}): Comparison {
  const confidence = checkedConfidence(options.confidence)
  const alpha = 1 - confidence
  const before = runsById(baseline)
  const after = runsById(current)
  const ids = [...after.keys()].filter((id) => before.has(id)).sort()
  const unjudged = ids.map((id) => figuresOf(before.get(id) ?? [], after.get(id) ?? [], confidence))
  const adjusted = adjustByFigure(
    ids.flatMap((id, index) => (unjudged[index] ?? []).map((figure) => ({ figure, varies: varies(figure.figure, before.get(id) ?? [], after.get(id) ?? []) }))),
  )
  let next = 0
  const tests = ids.map((id, index): TestComparison => {
    const figures = (unjudged[index] ?? []).map((figure) => judge(figure, adjusted[next++] ?? 1, alpha))
    return { id, verdict: worstOf(figures), figures }
  })
  return {
    confidence,
    correction: 'benjamini-hochberg',
    tests,
    onlyInBaseline: [...before.keys()].filter((id) => !after.has(id)).sort(),
    onlyInCurrent: [...after.keys()].filter((id) => !before.has(id)).sort(),
  }
}

/**
 * The adjusted p-value of each figure, in order. Benjamini–Hochberg runs once per figure: over the
 * pass rates of all tests, over their tokens, and so on (a pass rate is not held to a stricter bar
 * because durations were measured too). A figure that varies in no run of either side (every run
 * passed, or the same tokens in every run) is left out of its family and keeps its p-value (1):
 * given what was observed it has one possible outcome, so it can never be called, and it must not
 * raise the bar of the others (Tarone's argument for discrete tests, as Gilbert (2005) applies it to
 * the false discovery rate). Decision 063.
 */
function adjustByFigure(figures: ReadonlyArray<{ figure: UnjudgedFigure; varies: boolean }>): number[] {
  const adjusted = figures.map(({ figure }) => figure.p)
  for (const kind of ['pass_rate', ...NUMERIC_FIGURES] as const) {
    const family = figures.flatMap(({ figure, varies }, index) => (figure.figure === kind && varies ? [index] : []))
    const familyAdjusted = adjustBenjaminiHochberg(family.map((index) => figures[index]!.figure.p))
    family.forEach((index, position) => {
      adjusted[index] = familyAdjusted[position] ?? 1
    })
  }
  return adjusted
}

/** Whether the runs of both sides differ at all in `figure`. */
function varies(figure: UnjudgedFigure['figure'], baseline: readonly Run[], current: readonly Run[]): boolean {
  const values = [...baseline, ...current].map((run) => (figure === 'pass_rate' ? run.passed : run[figure])).filter((value) => value !== undefined)
  return values.some((value) => value !== values[0])
}

function checkedConfidence(confidence: unknown = 0.95): number {
  if (typeof confidence === 'number' && confidence > 0 && confidence < 1) return confidence
  throw new UsageError(`confidence must be a number between 0 and 1 such as 0.95 (95%), not ${String(confidence)}.`)
}

function runsById(tests: readonly TestRuns[]): Map<string, Run[]> {
  const byId = new Map<string, Run[]>()
  for (const test of tests) byId.set(test.id, [...(byId.get(test.id) ?? []), ...test.runs])
  return byId
}

/** The pass rate (when both sides have runs), then each numeric figure both sides have. */
function figuresOf(baseline: readonly Run[], current: readonly Run[], confidence: number): UnjudgedFigure[] {
  if (baseline.length === 0 || current.length === 0) return []
  const figures: UnjudgedFigure[] = [comparePassRate(baseline, current, confidence)]
  for (const figure of NUMERIC_FIGURES) {
    const compared = compareValues(figure, baseline, current, confidence)
    if (compared !== undefined) figures.push(compared)
  }
  return figures
}

/**
 * Significant after the correction, and pointing one way: regressed or improved. Otherwise
 * unchanged, with the runs it would need at the threshold the correction set for it in this
 * comparison (alpha · p / adjusted p: alpha for a lone figure).
 */
function judge(unjudged: UnjudgedFigure, adjustedP: number, alpha: number): FigureComparison {
  // The rest keeps the figure's own shape (pass rate or numeric); TypeScript loses the union through a
  // rest and a spread, hence the casts below.
  const { direction, tooFewRuns, needs: runsNeeded, ...figure } = unjudged
  if (adjustedP <= alpha && direction !== 0) {
    return { ...figure, verdict: direction < 0 ? 'regressed' : 'improved', reason: 'significant', adjustedP } as FigureComparison
  }
  const threshold = adjustedP > 0 ? (alpha * figure.p) / adjustedP : alpha
  const needs = runsNeeded(Math.min(alpha, threshold))
  return {
    ...figure,
    verdict: 'unchanged',
    reason: tooFewRuns ? 'too few runs' : 'within noise',
    adjustedP,
    ...(needs === undefined ? {} : { needs }),
  } as FigureComparison
}

function worstOf(figures: readonly FigureComparison[]): Verdict {
  if (figures.some((figure) => figure.verdict === 'regressed')) return 'regressed'
  if (figures.some((figure) => figure.verdict === 'improved')) return 'improved'
  return 'unchanged'
}
