/**
 * One figure of one test, compared before the correction for multiple comparisons: the summaries,
 * the effect, the raw p-value, which way it points, and what the verdict would be if it is not
 * significant. `compareTests` adjusts the p-values over all figures and gives the verdicts.
 */
import { fisherExact } from './fisher-exact.js'
import { mannWhitneyU } from './mann-whitney.js'
import { median } from './median.js'
import { newcombeInterval } from './newcombe.js'
import { bestPossibleP, passRateAtRuns, smallestSignificantRuns, valuesAtRuns } from './runs-needed.js'
import type { MedianComparison, NumericFigure, PassRateComparison, Run, RunsNeeded } from './types.js'

/** A figure's comparison without its verdict yet. */
export type Unjudged<T> = Omit<T, 'verdict' | 'reason' | 'adjustedP' | 'needs'> & {
  /** -1 when the current side is worse, 1 when better, 0 when neither tends either way. */
  direction: -1 | 0 | 1
  /** Whether no outcome could have been significant with these numbers of runs. */
  tooFewRuns: boolean
  /** The runs per side at which the observed effect would have a p-value at most `threshold`. */
  needs: (threshold: number) => RunsNeeded | undefined
}

export function comparePassRate(baseline: readonly Run[], current: readonly Run[], confidence: number): Unjudged<PassRateComparison> {
  const alpha = 1 - confidence
  const b = { passed: baseline.filter((run) => run.passed).length, n: baseline.length }
  const c = { passed: current.filter((run) => run.passed).length, n: current.length }
  const baselineRate = b.passed / b.n
  const currentRate = c.passed / c.n
  const effect = currentRate - baselineRate
  const tooFewRuns = bestPossibleP('rate', b.n, c.n) > alpha
  return {
    figure: 'pass_rate',
    test: 'fisher-exact',
    baseline: { ...b, rate: baselineRate },
    current: { ...c, rate: currentRate },
    effect,
    interval: newcombeInterval(b.passed, b.n, c.passed, c.n, confidence),
    p: fisherExact(b.passed, b.n - b.passed, c.passed, c.n - c.passed),
    confidence,
    direction: effect < 0 ? -1 : effect > 0 ? 1 : 0,
    tooFewRuns,
    needs: (threshold) => runsNeeded(effect === 0 ? undefined : passRateAtRuns(baselineRate, currentRate), tooFewRuns, 'rate', b.n, c.n, threshold),
  }
}

/** A numeric figure over the runs of each side that have it (a finite number); undefined when a side has none. */
export function compareValues(
  figure: NumericFigure,
  baselineRuns: readonly Run[],
  currentRuns: readonly Run[],
  confidence: number,
): Unjudged<MedianComparison> | undefined {
  const baseline = valuesOf(baselineRuns, figure)
  const current = valuesOf(currentRuns, figure)
  if (baseline.length === 0 || current.length === 0) return undefined
  const alpha = 1 - confidence
  const { u1, p, method } = mannWhitneyU(baseline, current)
  // U of the baseline below its middle: the current side's values tend higher, and higher is worse.
  const middle = (baseline.length * current.length) / 2
  const direction = u1 < middle ? -1 : u1 > middle ? 1 : 0
  const tooFewRuns = bestPossibleP('values', baseline.length, current.length) > alpha
  const baselineMedian = median(baseline)
  const currentMedian = median(current)
  return {
    figure,
    test: method === 'exact' ? 'mann-whitney-u-exact' : 'mann-whitney-u-asymptotic',
    baseline: { median: baselineMedian, n: baseline.length },
    current: { median: currentMedian, n: current.length },
    effect: currentMedian - baselineMedian,
    p,
    confidence,
    direction,
    tooFewRuns,
    needs: (threshold) =>
      runsNeeded(direction === 0 ? undefined : valuesAtRuns(baseline, current), tooFewRuns, 'values', baseline.length, current.length, threshold),
  }
}

/** The figure's finite values, sorted. */
function valuesOf(runs: readonly Run[], figure: NumericFigure): number[] {
  const values: number[] = []
  for (const run of runs) {
    const value = run[figure]
    if (typeof value === 'number' && Number.isFinite(value)) values.push(value)
  }
  return values.sort((x, y) => x - y)
}

/**
 * The runs the observed effect needs; with no effect to grow, a figure with too few runs still learns
 * how many runs make any outcome significant.
 */
function runsNeeded(
  pAt: ((n: number) => number) | undefined,
  tooFewRuns: boolean,
  kind: 'rate' | 'values',
  baselineRuns: number,
  currentRuns: number,
  threshold: number,
): RunsNeeded | undefined {
  const from = Math.max(baselineRuns, currentRuns)
  const fallback = tooFewRuns ? (n: number) => bestPossibleP(kind, n, n) : undefined
  const search = pAt ?? fallback
  const n = search === undefined ? undefined : smallestSignificantRuns(search, threshold, from)
  return n === undefined ? undefined : { baseline: n, current: n }
}
