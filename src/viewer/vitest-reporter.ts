/**
 * The HTML report of the trace directory written when a vitest run ends
 * (every run, its turns, its diff against its golden), for a CI artifact:
 * the `report` option of the reagent-flow vitest reporter
 * (src/vitest/reporter.ts):
 *
 *   reporters: ['default', ['reagent-flow/vitest/reporter', { report: 'reagent-report.html' }]]
 *
 * Paths resolve against the vitest root, as the trace directory does inside vitest.
 */
import { resolve } from 'node:path'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import { plural } from '../report/format-value.js'
import { writeReport } from './report.js'

export interface ReportReporterOptions {
  /** Where to write the report, relative to the vitest root. @example 'reagent-report.html' */
  report: string
  /** The trace directory, relative to the vitest root. Default: `.reagent`. */
  dir?: string
  /** The page title. Default: `reagent-flow report · <dir>`. */
  title?: string
}

/** Writes the report of `options.dir` under `root` to `options.report`; returns the line to print. */
export function writeReportAtEnd(root: string, options: ReportReporterOptions): string {
  const out = resolve(root, options.report)
  const dir = resolve(root, options.dir ?? DEFAULT_TRACE_DIR)
  const written = writeReport(out, { dir, ...(options.title === undefined ? {} : { title: options.title }) })
  return `reagent-flow report: ${out} · ${plural(written.runs, 'run')}, ${plural(written.goldens, 'golden')}`
}
