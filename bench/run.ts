/**
 * npm run bench: runs every suite in bench/suites (in file-name order, or
 * only those named on the command line) against the built package, and
 * prints each figure with its same-run baseline and target.
 *
 *   npm run bench              all suites
 *   npm run bench -- record    suites whose file name contains "record"
 *   npm run bench -- ledger-scale   ten million runs in PostgreSQL (only when named)
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { formatRows, holds, type Row } from './lib/report.js'

export interface BenchSuite {
  name: string
  run: () => Promise<Row[]> | Row[]
}

/** Suites that run only when named in full: ledger-scale loads ten million runs into PostgreSQL. */
const ON_REQUEST = ['ledger-scale']

const filters = process.argv.slice(2)
const dir = join(import.meta.dirname, 'suites')
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !ON_REQUEST.some((name) => f.includes(name)) || ON_REQUEST.some((name) => f.includes(name) && filters.includes(name)))
  .sort()

if ((globalThis as { gc?: unknown }).gc === undefined) {
  console.warn('bench: run with node --expose-gc (npm run bench does) for stable figures')
}
console.log(`reagent-flow bench · node ${process.version} · ${new Date().toISOString()}`)
const rows: Row[] = []
for (const file of files) {
  const { suite } = (await import(pathToFileURL(join(dir, file)).href)) as { suite: BenchSuite }
  const suiteRows = await suite.run()
  console.log(formatRows(suiteRows))
  rows.push(...suiteRows)
}
const missed = rows.filter((row) => holds(row) === false)
console.log(
  `\n${rows.length} figures, ${missed.length === 0 ? 'every target held' : `${missed.length} target(s) missed: ${missed.map((r) => r.name).join('; ')}`}`,
)
