/** `reagent-flow compare <baseline> <current>`: for each test, is the current run worse than the baseline's, better, or the same within noise? */
import { BASELINE_OPTIONS, compareWith, resolveBaseline } from '../baseline-options.js'
import { comparisonLines } from '../../results/comparison-lines.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command } from '../command.js'

export const compareCommand: Command = {
  name: 'compare',
  args: '<baseline> <current>',
  summary:
    'regression or noise: each test of the current runs against the baseline, pass rate by an exact test, tokens, dollars, duration, turns and tool calls by a rank test',
  details: [
    'Each side is a results file or a folder of them (every results*.json at any depth: the results of earlier runs, such as CI artifacts).',
    'The baseline may be ledger:<branch>@<N>: the last N results of the branch the ledger at REAGENT_LEDGER_URL keeps (reagent-flow ci upload).',
    "A figure is regressed or improved at the confidence asked for, after Benjamini–Hochberg's correction over each figure of every test; else unchanged, within noise.",
    'Tests the quarantine file names are compared and shown, never counted as a regression. Flaky tests (runs of one commit that both passed and failed) are listed.',
    'Exit codes: 0 no test regressed, 1 a test regressed, 2 bad usage or unreadable results.',
  ],
  options: { confidence: BASELINE_OPTIONS.confidence!, quarantine: BASELINE_OPTIONS.quarantine! },
  positionals: { min: 2, max: 2, names: 'baseline and current results' },
  examples: [
    'reagent-flow compare main-results/ .reagent/results/',
    'reagent-flow compare baseline.json results.json --confidence 99% --json',
    'reagent-flow compare ledger:main@20 .reagent/results/',
  ],
  async run(input, ctx) {
    const report = compareWith(await resolveBaseline(input.positionals[0]!), input.positionals[1]!, input)
    const regressed = report.split.gated.some((test) => test.verdict === 'regressed')
    if (ctx.json) {
      ctx.printJson({
        regressed,
        comparison: report.comparison,
        quarantined: report.split.quarantined.map(({ test, entry }) => ({ test: test.id, reason: entry.reason, date: entry.date })),
        unmatched_quarantine: report.split.unmatched,
        flaky: report.flaky,
      })
    } else {
      for (const line of comparisonLines(report, ctx.c)) ctx.print(line)
    }
    return regressed ? EXIT_CHECK_FAILED : EXIT_OK
  },
}
