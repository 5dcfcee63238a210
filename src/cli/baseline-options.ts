/**
 * The options every command that compares with a baseline takes
 * (`ci gate --no-regressions`, `ci summary`, `ci comment`): the baseline's
 * results (a file, a folder, or the ledger's `ledger:<branch>@<N>`), the
 * confidence and the quarantine file, read one way; and
 * `report` and `view`, which show a comparison of `--results` with it.
 */
import { UsageError } from '../errors/index.js'
import { compareResults } from '../results/compare-results.js'
import type { ComparisonReport } from '../results/comparison-lines.js'
import { isLedgerBaseline, readLedgerBaseline } from '../results/ledger-baseline.js'
import type { ResultsSource } from '../results/results-source.js'
import { parseShare } from './args.js'
import type { CommandInput, OptionSpec } from './command.js'

export const BASELINE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  baseline: {
    type: 'string',
    value: '<results>',
    description:
      'the results to compare with (regression or noise): a results file or a folder of them, or ledger:<branch>@<N> (the last N results the ledger at REAGENT_LEDGER_URL keeps)',
  },
  confidence: { type: 'string', value: '<share>', default: '0.95', description: 'with --baseline: how sure a verdict must be, 0.95 or 95%' },
  quarantine: {
    type: 'string',
    value: '<file>',
    default: '.reagent/quarantine.json',
    description: 'with --baseline: tests kept out of the verdict on purpose',
  },
}

/** `0.95` or `95%`: a confidence strictly between 0 and 1. */
export function confidenceOption(raw: unknown): number | undefined {
  if (raw === undefined) return undefined
  const share = parseShare(raw)
  if (!(share > 0 && share < 1))
    throw new UsageError(`--confidence must be between 0 and 1 (0.95) or a percentage (95%); got ${JSON.stringify(String(raw).trim())}`)
  return share
}

/** The baseline to compare with: the path as given, or, for `ledger:<branch>@<N>`, the ledger's results read now. */
export async function resolveBaseline(baseline: string): Promise<string | ResultsSource> {
  return isLedgerBaseline(baseline) ? readLedgerBaseline(baseline) : baseline
}

/** The comparison of `current` with `baseline` (see resolveBaseline) as the options ask for it. */
export function compareWith(baseline: string | ResultsSource, current: string, input: CommandInput): ComparisonReport {
  return compareResults(baseline, current, {
    confidence: confidenceOption(input.options.confidence),
    quarantine: input.options.quarantine as string | undefined,
  })
}

/** The comparison with `--baseline`, when it was given. */
export async function baselineComparison(input: CommandInput, current: string): Promise<ComparisonReport | undefined> {
  const baseline = input.options.baseline as string | undefined
  return baseline === undefined ? undefined : compareWith(await resolveBaseline(baseline), current, input)
}

/** `report` and `view`: the current results, compared with `--baseline` on the Comparison page. */
export const RESULTS_OPTION: OptionSpec = {
  type: 'string',
  value: '<results>',
  description: 'with --baseline: this run’s results (a results file or a folder of them), shown against the baseline on a Comparison page',
}

/** `--results` and `--baseline` of `report` and `view`: both, or neither (a `UsageError` for one alone). */
export function resultsAndBaseline(input: CommandInput): { current: string; baseline: string } | undefined {
  const current = input.options.results as string | undefined
  const baseline = input.options.baseline as string | undefined
  if (current === undefined && baseline === undefined) return undefined
  if (current === undefined) throw new UsageError('--baseline needs --results <results>: the current results to compare with the baseline')
  if (baseline === undefined) throw new UsageError('--results needs --baseline <results>: the results to compare them with, such as main’s last runs')
  return { current, baseline }
}
