/**
 * How many runs a figure needs: the smallest equal number of runs per side at which what was observed
 * would be significant, before the correction for multiple comparisons (which can only raise it). Each
 * side keeps its observed distribution at any number of runs n: a pass rate keeps its rate (rounded
 * to whole runs), a numeric figure is drawn at n evenly spaced quantiles of its observed values.
 */
import { fisherExact } from './fisher-exact.js'
import { mannWhitneyU } from './mann-whitney.js'

/** Beyond this many runs per side an effect is reported without `needs`: it is noise for any suite that pays for its runs. */
export const MAX_RUNS_NEEDED = 1000

/** The p-value a comparison would have with `n` runs on each side. */
type PValueAtRuns = (n: number) => number

/** The pass rates' p-value at n runs per side. */
export function passRateAtRuns(baselineRate: number, currentRate: number): PValueAtRuns {
  return (n) => {
    const baseline = Math.round(baselineRate * n)
    const current = Math.round(currentRate * n)
    return fisherExact(baseline, n - baseline, current, n - current)
  }
}

/** A numeric figure's p-value at n runs per side, each side's sorted values drawn at n evenly spaced quantiles. */
export function valuesAtRuns(baseline: readonly number[], current: readonly number[]): PValueAtRuns {
  return (n) => mannWhitneyU(atQuantiles(baseline, n), atQuantiles(current, n)).p
}

/** The value at the (i + ½)/n quantile of `sorted`, for i below n: `sorted` itself when n is its length. */
function atQuantiles(sorted: readonly number[], n: number): number[] {
  return Array.from({ length: n }, (_, i) => sorted[Math.floor(((i + 0.5) * sorted.length) / n)] ?? Number.NaN)
}

/**
 * The smallest n from `from` up to `MAX_RUNS_NEEDED` with a p-value at most `alpha`, or undefined. The
 * p-value falls as n grows, apart from the wobble of rounding to whole runs, so the search doubles n
 * until it is small enough and then bisects: where rounding wobbles, the answer can be a run or two
 * off the very smallest.
 */
export function smallestSignificantRuns(pAt: PValueAtRuns, alpha: number, from: number): number | undefined {
  let below = Math.max(1, from) - 1
  let above = Math.max(1, from)
  while (pAt(above) > alpha) {
    if (above >= MAX_RUNS_NEEDED) return undefined
    below = above
    above = Math.min(above * 2, MAX_RUNS_NEEDED)
  }
  while (above - below > 1) {
    const middle = Math.floor((below + above) / 2)
    if (pAt(middle) <= alpha) above = middle
    else below = middle
  }
  return above
}

/**
 * The smallest p-value any outcome could have with these numbers of runs: every baseline run passing
 * and every current one failing, or every value of one side below every value of the other. When even
 * that is above alpha, no verdict but "unchanged" is possible: the figure has too few runs.
 */
export function bestPossibleP(kind: 'rate' | 'values', baselineRuns: number, currentRuns: number): number {
  if (kind === 'rate') return fisherExact(baselineRuns, 0, 0, currentRuns)
  const low = Array.from({ length: baselineRuns }, (_, i) => i)
  const high = Array.from({ length: currentRuns }, (_, i) => baselineRuns + i)
  return mannWhitneyU(low, high).p
}
