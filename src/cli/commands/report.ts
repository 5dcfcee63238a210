/** `reagent-flow report --out report.html`: the viewer's pages for the runs of a directory, as one self-contained HTML file. */
import { UsageError } from '../../errors/index.js'
import { formatBytes } from '../../server/read-body.js'
import { plural } from '../../report/format-value.js'
import { loadPriceTable } from '../../storage/index.js'
import { comparisonPayload } from '../../viewer/comparison-payload.js'
import { writeReport } from '../../viewer/report.js'
import { stringOption } from '../args.js'
import { BASELINE_OPTIONS, compareWith, resolveBaseline, RESULTS_OPTION, resultsAndBaseline } from '../baseline-options.js'
import { EXIT_OK, type Command } from '../command.js'

export const reportCommand: Command = {
  name: 'report',
  args: '',
  summary: 'an HTML report of the runs in the trace directory: one file, no network, for CI artifacts',
  details: [
    'The Runs, Run and Diff pages of reagent-flow view, with every run and golden of --dir inside one',
    'HTML file that opens from disk (no server, no network, no external assets). Diffs against goldens',
    'use the default options; other modes and any two runs are compared in the page.',
    "A vitest run writes one with the reporter reagent-flow/vitest/reporter's report option (see README).",
    'With --results and --baseline, a Comparison page too: each test of the results against the baseline (regression or noise,',
    'as reagent-flow compare says it), with a chart of both sides’ runs per figure.',
  ],
  options: {
    out: { type: 'string', value: '<file.html>', description: 'where to write the report (required)' },
    title: { type: 'string', value: '<text>', description: 'the page title (default: reagent-flow report · <dir>)' },
    prices: { type: 'string', value: '<file.json>', description: 'prices added over the built-in table, for costs' },
    results: RESULTS_OPTION,
    ...BASELINE_OPTIONS,
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow report --out reagent-report.html',
    'reagent-flow report --dir test/.traces --out artifacts/agents.html --title "Nightly agents"',
    'reagent-flow report --out reagent-report.html --results .reagent/results/ --baseline main-results/',
  ],
  async run(input, ctx) {
    const out = stringOption(input, 'out')
    if (out === undefined || out === '') throw new UsageError('--out <file.html> is required: where to write the report')
    const title = stringOption(input, 'title')
    const sides = resultsAndBaseline(input)
    const comparison = sides === undefined ? undefined : comparisonPayload(compareWith(await resolveBaseline(sides.baseline), sides.current, input))
    const report = writeReport(out, {
      dir: ctx.dir,
      prices: loadPriceTable(stringOption(input, 'prices')),
      ...(title === undefined ? {} : { title }),
      comparison,
    })
    const compared = comparison === undefined ? null : comparison.tests.length
    if (ctx.json) ctx.printJson({ out, runs: report.runs, goldens: report.goldens, skipped: report.skipped, bytes: report.bytes, compared })
    else {
      const against = comparison === undefined ? '' : ` · ${plural(comparison.tests.length, 'test')} compared with ${comparison.baseline.path}`
      ctx.print(`reagent-flow report: ${out} · ${plural(report.runs, 'run')}, ${plural(report.goldens, 'golden')}${against} · ${formatBytes(report.bytes)}`)
    }
    if (report.skipped > 0)
      ctx.note(`${plural(report.skipped, 'file')} in ${ctx.dir} ${report.skipped === 1 ? 'is' : 'are'} not a readable trace; the report lists them`)
    return EXIT_OK
  },
}
