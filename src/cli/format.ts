/** Small text helpers the commands share: tables, times, labels. */
import { stripVTControlCharacters } from 'node:util'
import type { Colors } from '../report/colors.js'
import type { Grade } from '../trace/types.js'

export interface Column {
  title: string
  align?: 'left' | 'right'
}

/** A table with a header row; widths ignore colour codes. The last column is not padded. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[], c: Colors): string {
  const widths = columns.map((column, i) => Math.max(column.title.length, ...rows.map((row) => stripVTControlCharacters(row[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1 && columns[i]?.align !== 'right') return cell
        const pad = ' '.repeat(Math.max(0, widths[i]! - stripVTControlCharacters(cell).length))
        return columns[i]?.align === 'right' ? pad + cell : cell + pad
      })
      .join('  ')
      .trimEnd()
  return [c.dim(line(columns.map((column) => column.title))), ...rows.map(line)].join('\n')
}

/** Epoch seconds as `2026-11-30 12:37:48` (UTC), the same on every machine. */
export function formatTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')
}

/** A verdict, green for pass and red for fail. */
export function formatVerdict(verdict: Grade['grade'], c: Colors): string {
  return verdict === 'pass' ? c.green(verdict) : c.red(verdict)
}

/** A grade on one line: `pass · reviewer · 2027-01-15 08:00:00 UTC · reason · ref`, leaving out the parts it does not have. */
export function formatGrade(grade: Grade, c: Colors): string {
  const { grade: verdict, source, reason, ref, graded_at: at } = grade
  return [formatVerdict(verdict, c), source, `${formatTime(at)} UTC`, reason ?? '', ref ?? ''].filter((part) => part !== '').join(' · ')
}

/** `key   value` lines with the keys padded to one width; a value's further lines are indented under its first. */
export function formatFacts(facts: readonly (readonly [string, string])[], c: Colors): string {
  const width = Math.max(...facts.map(([key]) => key.length))
  const indent = `\n${' '.repeat(width + 2)}`
  return facts.map(([key, value]) => `${c.dim(key.padEnd(width))}  ${value.replace(/\r?\n/g, indent)}`.trimEnd()).join('\n')
}
