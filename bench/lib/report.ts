/** One table row per measured figure; a target row says whether it holds. */

export interface Row {
  suite: string
  name: string
  /** Our time (ms) or other figure. */
  value: number
  unit: 'ms' | 'µs' | 'bytes' | 'x' | '/s' | 'modules'
  /** The baseline measured in the same run, in the same unit, when there is one. */
  baseline?: number
  baselineName?: string
  /** What the figure must stay under: a ratio (for baseline rows) or an absolute value. */
  target?: { max: number; of: 'ratio' | 'value' }
}

function fmt(value: number, unit: Row['unit']): string {
  if (!Number.isFinite(value)) return 'n/a'
  if (unit === 'bytes') return value >= 10_240 ? `${(value / 1024).toFixed(0)} KiB` : `${value.toFixed(0)} B`
  if (unit === 'x') return `${value.toFixed(2)}x`
  if (unit === '/s') return `${value.toFixed(0)}/s`
  if (unit === 'modules') return `${value.toFixed(0)} modules`
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ${unit}`
}

export function ratioOf(row: Row): number | undefined {
  return row.baseline === undefined ? undefined : row.value / row.baseline
}

export function holds(row: Row): boolean | undefined {
  if (row.target === undefined) return undefined
  const measured = row.target.of === 'ratio' ? ratioOf(row) : row.value
  return measured === undefined ? undefined : measured <= row.target.max
}

export function formatRows(rows: readonly Row[]): string {
  const lines: string[] = []
  let suite = ''
  for (const row of rows) {
    if (row.suite !== suite) {
      suite = row.suite
      lines.push('', suite)
    }
    const ratio = ratioOf(row)
    const target =
      row.target === undefined
        ? ''
        : `  target ${row.target.of === 'ratio' ? `≤ ${row.target.max}x` : `≤ ${fmt(row.target.max, row.unit)}`} ${holds(row) ? 'ok' : 'MISSED'}`
    const versus = ratio === undefined ? '' : `  vs ${row.baselineName ?? 'baseline'} ${fmt(row.baseline!, row.unit)} = ${ratio.toFixed(2)}x`
    lines.push(`  ${row.name.padEnd(52)} ${fmt(row.value, row.unit).padStart(10)}${versus}${target}`)
  }
  return lines.join('\n')
}
