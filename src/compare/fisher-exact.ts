/**
 * Fisher's exact test on a 2×2 table, two-sided, as `scipy.stats.fisher_exact(table,
 * alternative='two-sided')`: the probability, under the hypergeometric distribution of the table's
 * margins, of every table at most as probable as the observed one. The distribution is stdlib's; the
 * sum over tables is the test (note 063).
 */
import hypergeometricPmf from '@stdlib/stats-base-dists-hypergeometric-pmf'

/**
 * A table within this relative distance of the observed table's probability counts as equally
 * probable. SciPy uses 1e-14 with Boost's probabilities; ours come through log-factorials, whose rounding
 * can part two tables of exactly equal probability by more than that. R's `fisher.test` uses 1e-7.
 */
const SAME_PROBABILITY = 1 + 1e-7

/**
 * The two-sided p-value of the table `[[a, b], [c, d]]` (non-negative whole numbers): for a pass rate,
 * `a`/`b` are the baseline's passes/failures and `c`/`d` the current side's.
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  const total = a + b + c + d
  const firstRow = a + b
  const firstColumn = a + c
  const observed = hypergeometricPmf(a, total, firstRow, firstColumn)
  let p = 0
  for (let x = Math.max(0, firstColumn - (total - firstRow)); x <= Math.min(firstRow, firstColumn); x++) {
    const probability = hypergeometricPmf(x, total, firstRow, firstColumn)
    if (probability <= observed * SAME_PROBABILITY) p += probability
  }
  return Math.min(p, 1)
}
