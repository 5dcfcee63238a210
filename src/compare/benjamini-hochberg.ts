/**
 * Benjamini–Hochberg adjusted p-values, as `scipy.stats.false_discovery_control(p, method='bh')`:
 * the i-th smallest of m p-values times m / i, made non-decreasing from the largest down, at most 1.
 * A figure whose adjusted p-value is at most 1 − confidence is a discovery, and the expected share of
 * false ones among the discoveries stays at most 1 − confidence (note 063 says why this and not Holm).
 */
export function adjustBenjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length
  const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p)
  const adjusted = new Array<number>(m)
  let smallestAbove = 1
  for (let rank = m; rank >= 1; rank--) {
    const entry = order[rank - 1]
    if (entry === undefined) continue
    smallestAbove = Math.min(smallestAbove, (entry.p * m) / rank)
    adjusted[entry.index] = smallestAbove
  }
  return adjusted
}
