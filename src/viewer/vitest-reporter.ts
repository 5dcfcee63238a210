/**
 * `reagent-flow/vitest/report`: a vitest reporter that writes the HTML
 * report of the trace directory when a test run ends (every run, its turns,
 * its diff against its golden), for a CI artifact. Add it beside vitest's own
 * reporter:
 *
 *   reporters: ['default', ['reagent-flow/vitest/report', { report: 'reagent-report.html' }]]
 *
 * Paths resolve against the vitest root, as the trace directory does inside
 * vitest. It only writes the report: the golden summary of a run is the
 * reagent-flow vitest reporter's (src/vitest), which can take this one's
 * `report` option by calling `writeReportAtEnd`.
 */
import { resolve } from 'node:path'
import type { Reporter, Vitest } from 'vitest/node'
import { DEFAULT_TRACE_DIR } from '../storage.js'
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

const OPTION_NAMES = ['report', 'dir', 'title']

function checkOptions(options: unknown): ReportReporterOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError("reagent-flow/vitest/report needs options: ['reagent-flow/vitest/report', { report: 'reagent-report.html' }]")
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) throw new TypeError(`Unknown reagent-flow/vitest/report option "${key}". Valid options: ${OPTION_NAMES.join(', ')}.`)
  }
  const { report, dir, title } = options as Record<string, unknown>
  if (typeof report !== 'string' || report === '') throw new TypeError(`reagent-flow/vitest/report option "report" must be the path of the HTML file to write; got ${JSON.stringify(report) ?? typeof report}.`)
  for (const [name, value] of [['dir', dir], ['title', title]] as const) {
    if (value !== undefined && typeof value !== 'string') throw new TypeError(`reagent-flow/vitest/report option "${name}" must be a string; got ${typeof value}.`)
  }
  return options as ReportReporterOptions
}

/** Writes the report of `options.dir` under `root` to `options.report`; returns the line to print. */
export function writeReportAtEnd(root: string, options: ReportReporterOptions): string {
  const out = resolve(root, options.report)
  const dir = resolve(root, options.dir ?? DEFAULT_TRACE_DIR)
  const written = writeReport(out, { dir, ...(options.title === undefined ? {} : { title: options.title }) })
  return `reagent-flow report: ${out} · ${plural(written.runs, 'run')}, ${plural(written.goldens, 'golden')}`
}

export default class ReagentReportReporter implements Reporter {
  readonly #options: ReportReporterOptions
  #vitest: Vitest | undefined

  constructor(options: ReportReporterOptions) {
    this.#options = checkOptions(options)
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  onTestRunEnd(): void {
    const root = this.#vitest?.config.root ?? process.cwd()
    const line = writeReportAtEnd(root, this.#options)
    if (this.#vitest !== undefined) this.#vitest.logger.log(line)
    else process.stdout.write(`${line}\n`)
  }
}

/** The reporter as an object, for configs that build their reporters: `reporters: ['default', reagentReport({ report: 'r.html' })]`. */
export function reagentReport(options: ReportReporterOptions): ReagentReportReporter {
  return new ReagentReportReporter(options)
}
