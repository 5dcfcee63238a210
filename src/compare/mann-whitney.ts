/**
 * The Mann–Whitney U test, two-sided, as `scipy.stats.mannwhitneyu(x, y, alternative='two-sided',
 * use_continuity=True, method=...)`. The normal distribution is stdlib's; the ranks, U and the exact
 * distribution of U (a count, not a distribution to approximate) are the test itself (note 063).
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf'

/** `auto` chooses as SciPy does: `exact` when one sample has at most 8 values and no value is tied, else `asymptotic`. */
export type MannWhitneyMethod = 'auto' | 'exact' | 'asymptotic'

export interface MannWhitneyResult {
  /** U of the first sample: the number of pairs (x, y) with x > y, ties counting one half. */
  u1: number
  p: number
  method: 'exact' | 'asymptotic'
}

/** Both samples need at least one value. */
export function mannWhitneyU(x: readonly number[], y: readonly number[], method: MannWhitneyMethod = 'auto'): MannWhitneyResult {
  const n1 = x.length
  const n2 = y.length
  const { ranks, tieSizes } = averageRanks([...x, ...y])
  let rankSum = 0
  for (let i = 0; i < n1; i++) rankSum += ranks[i] ?? 0
  const u1 = rankSum - (n1 * (n1 + 1)) / 2
  const u = Math.max(u1, n1 * n2 - u1)
  const chosen = method === 'auto' ? (Math.min(n1, n2) <= 8 && tieSizes.length === 0 ? 'exact' : 'asymptotic') : method
  const p = chosen === 'exact' ? 2 * exactLowerTail(n1, n2, n1 * n2 - Math.trunc(u)) : 2 * normalCdf(-asymptoticZ(u, n1, n2, tieSizes), 0, 1)
  return { u1, p: Math.min(Math.max(p, 0), 1), method: chosen }
}

/** The ranks of `values` (1-based, ties sharing their average rank) and the size of each group of ties. */
function averageRanks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value)
  const ranks = new Array<number>(values.length)
  const tieSizes: number[] = []
  for (let start = 0; start < order.length; ) {
    let end = start + 1
    while (end < order.length && order[end]?.value === order[start]?.value) end++
    const rank = (start + 1 + end) / 2
    for (let i = start; i < end; i++) ranks[order[i]?.index ?? 0] = rank
    if (end - start > 1) tieSizes.push(end - start)
    start = end
  }
  return { ranks, tieSizes }
}

/** The standardised U with the tie correction and the continuity correction, as SciPy's `_get_mwu_z`. */
function asymptoticZ(u: number, n1: number, n2: number, tieSizes: readonly number[]): number {
  const n = n1 + n2
  const tieTerm = tieSizes.reduce((sum, t) => sum + t ** 3 - t, 0)
  const s = Math.sqrt(((n1 * n2) / 12) * Math.max(0, n + 1 - tieTerm / (n * (n - 1))))
  // All values equal: s is 0 and the numerator -0.5, so z is -Infinity and p is 1, as in SciPy.
  return (u - (n1 * n2) / 2 - 0.5) / s
}

/**
 * P(U ≤ k) under the null hypothesis for samples of sizes n1 and n2 without ties, counted exactly:
 * the number of arrangements with U = u is the coefficient of q^u in the Gaussian binomial
 * ∏_{i=1..m} (1 − q^(n+i)) / (1 − q^i), with m the smaller size. BigInt keeps the counts exact
 * (they pass 2^53 quickly); only the series up to q^k is needed.
 */
function exactLowerTail(n1: number, n2: number, k: number): number {
  const m = Math.min(n1, n2)
  const n = Math.max(n1, n2)
  const counts = new Array<bigint>(k + 1).fill(0n)
  counts[0] = 1n
  for (let i = 1; i <= m; i++) {
    // Divide by (1 − q^i): a running sum with step i.
    for (let u = i; u <= k; u++) counts[u] = (counts[u] ?? 0n) + (counts[u - i] ?? 0n)
    // Multiply by (1 − q^(n+i)), from the top so each coefficient reads the one before the step.
    for (let u = k; u >= n + i; u--) counts[u] = (counts[u] ?? 0n) - (counts[u - n - i] ?? 0n)
  }
  let below = 0n
  for (const count of counts) below += count
  let total = 1n
  for (let i = 1; i <= m; i++) total = (total * BigInt(n + i)) / BigInt(i)
  return Number(below) / Number(total)
}
