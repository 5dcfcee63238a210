/**
 * Newcombe's hybrid score interval for a difference of two proportions (Newcombe 1998, method 10):
 * each side's Wilson score interval, combined. It stays inside [-1, 1], behaves at 0/n and n/n, and
 * its coverage is close to nominal at the small numbers of runs agent tests have. The normal quantile
 * is stdlib's.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile'

export interface Interval {
  low: number
  high: number
}

/** The Wilson score interval of `successes / n` at the normal quantile `z`, as SciPy's `binomtest(...).proportion_ci(method='wilson')`. */
function wilsonInterval(successes: number, n: number, z: number): Interval {
  const p = successes / n
  const z2 = z * z
  const centre = (successes + z2 / 2) / (n + z2)
  const halfWidth = (z * Math.sqrt(n * p * (1 - p) + z2 / 4)) / (n + z2)
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) }
}

/**
 * The interval, at `confidence`, for `current / currentRuns - baseline / baselineRuns` (the current pass
 * rate minus the baseline's).
 */
export function newcombeInterval(baseline: number, baselineRuns: number, current: number, currentRuns: number, confidence: number): Interval {
  const z = normalQuantile(0.5 + 0.5 * confidence, 0, 1)
  const p1 = current / currentRuns
  const p2 = baseline / baselineRuns
  const one = wilsonInterval(current, currentRuns, z)
  const two = wilsonInterval(baseline, baselineRuns, z)
  const difference = p1 - p2
  return {
    low: difference - Math.sqrt((p1 - one.low) ** 2 + (two.high - p2) ** 2),
    high: difference + Math.sqrt((one.high - p1) ** 2 + (p2 - two.low) ** 2),
  }
}
