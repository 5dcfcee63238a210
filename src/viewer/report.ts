/**
 * `reagent-flow report`: the viewer's Runs, Run and Diff pages as one HTML
 * file with everything inside (styles, script, every run and golden of the
 * directory), for a CI artifact: it opens from disk, reaches no network,
 * and its diffs with other options or between any two runs are computed in
 * the page by the same diffTraces. With a comparison (`--results` and
 * `--baseline`), its Comparison page too (comparison-payload.ts).
 */
import { loadPriceTable, writeFileAtomic } from '../storage/index.js'
import type { ModelCost } from '../trace/cost.js'
import { epochSeconds } from '../trace/ids.js'
import { viewerAssets } from './assets.js'
import { diffWithGolden } from './golden-of.js'
import { reportPage } from './page-html.js'
import { compactTrace, stackTraceOf } from './payloads.js'
import { runsByParent, runSpend } from './run-spend.js'
import { approveCommand } from './shell-words.js'
import { TraceIndex } from './trace-index.js'
import type { ComparisonPayload, ReportData } from './types.js'

export interface ReportOptions {
  /** The trace directory. */
  dir: string
  /** Default: the built-in table. */
  prices?: ReadonlyMap<string, ModelCost>
  /** Default: `reagent-flow report · <dir>`. */
  title?: string
  /** The comparison with a baseline the report shows on its Comparison page. */
  comparison?: ComparisonPayload | undefined
}

export interface BuiltReport {
  html: string
  runs: number
  goldens: number
  /** Files that are not readable traces (listed in the report too). */
  skipped: number
}

/** The report of `dir` as HTML text. */
export function buildReport({ dir, prices = loadPriceTable(), title = `reagent-flow report · ${dir}`, comparison }: ReportOptions): BuiltReport {
  const assets = viewerAssets()
  const index = new TraceIndex({ dir, prices })
  const runs = index.payload()
  const data: ReportData = {
    runs,
    generated_at: epochSeconds(),
    traces: {},
    stack_traces: {},
    golden_diffs: {},
    approve_commands: {},
    ...(comparison === undefined ? {} : { comparison }),
  }
  const byParent = runsByParent(runs.runs)
  for (const summary of runs.runs) {
    let trace
    try {
      trace = index.trace(summary.id)
    } catch {
      continue
    }
    if (trace === undefined) continue
    data.traces[summary.id] = compactTrace(trace)
    if (summary.kind === 'run') data.approve_commands[summary.id] = approveCommand(dir, summary)
    const spend = summary.kind === 'run' ? runSpend(index, trace, byParent) : undefined
    if (spend !== undefined) (data.spends ??= {})[summary.id] = spend
    const stack = stackTraceOf(summary, trace)
    if (stack !== null) data.stack_traces[summary.id] = stack
    const goldenId = summary.golden?.id ?? null
    const text = goldenId === null ? null : index.goldenText(goldenId)
    if (text === null || goldenId === null || summary.golden?.state === 'pending') continue
    try {
      data.golden_diffs[summary.id] = diffWithGolden(index.pathOf(goldenId), text, trace)
    } catch {
      // An unreadable golden: the Runs page says so.
    }
  }
  index.close()
  const goldens = runs.runs.filter((run) => run.kind === 'golden').length
  return {
    html: reportPage({ title, styles: assets.styles, script: assets.script, data }),
    runs: runs.runs.length - goldens,
    goldens,
    skipped: runs.skipped.length,
  }
}

/** Writes the report of `options.dir` to `out` (atomically). */
export function writeReport(out: string, options: ReportOptions): BuiltReport & { bytes: number } {
  const report = buildReport(options)
  writeFileAtomic(out, report.html)
  return { ...report, bytes: Buffer.byteLength(report.html) }
}
