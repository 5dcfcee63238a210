import type { FigureComparison } from './types.js'

/**
 * A figure's verdict as a person reads it: `regressed`, `improved`, `unchanged (within noise)`, or
 * `unchanged (too few runs: needs 4 per side)`.
 */
export function describeVerdict(figure: FigureComparison): string {
  if (figure.verdict !== 'unchanged') return figure.verdict
  if (figure.reason !== 'too few runs') return 'unchanged (within noise)'
  return figure.needs === undefined ? 'unchanged (too few runs)' : `unchanged (too few runs: needs ${figure.needs.current} per side)`
}
