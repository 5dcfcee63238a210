/** `reagent-flow ci gate <results>`: fails the build when the run's pass rate, dollars or tokens are past a gate. */
import { UsageError } from '../../errors/index.js'
import { parseShare } from '../args.js'
import { checkGates, type GateLine, type Gates } from '../../results/gates.js'
import { type ComparisonReport, figureLine } from '../../results/comparison-lines.js'
import { readResultsFile } from '../../results/results-file.js'
import { BASELINE_OPTIONS, compareWith, resolveBaseline } from '../baseline-options.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command, type CommandInput } from '../command.js'

/** `0.9` or `90%`: a share from 0 to 1. */
function passRateOption(raw: unknown): number | undefined {
  if (raw === undefined) return undefined
  const share = parseShare(raw)
  if (!(share >= 0 && share <= 1))
    throw new UsageError(`--min-pass-rate must be a share from 0 to 1 (0.9) or a percentage (90%); got ${JSON.stringify(String(raw).trim())}`)
  return share
}

function amountOption(input: CommandInput, name: string, example: string, whole: boolean): number | undefined {
  const raw = input.options[name]
  if (raw === undefined) return undefined
  const text = String(raw).trim()
  if (!(whole ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text)) {
    throw new UsageError(`--${name} must be ${whole ? 'a whole number' : 'a number'} of at least 0 (${example}); got ${JSON.stringify(text)}`)
  }
  return Number(text)
}

export const ciGateCommand: Command = {
  name: 'ci gate',
  args: '<results>',
  summary: 'check a results file against gates: a minimum pass rate, a maximum of dollars and of tokens, per test or for the suite',
  details: [
    'One line per check: which gate, which test (file:line "name") or the suite, which figure.',
    '--no-regressions compares the results with --baseline (a results file or a folder of them), as `reagent-flow compare` does: one line per regressed test; quarantined tests are not gated.',
    'Exit codes: 0 every gate kept, 1 a gate failed, 2 bad usage or an unreadable results file.',
    "Skipped tests count nowhere. The suite's pass rate is the share of its tests that passed; a test's is over its runs.",
  ],
  options: {
    'min-pass-rate': { type: 'string', value: '<share>', description: 'the lowest pass rate allowed: 0.9 or 90%' },
    'max-usd': { type: 'string', value: '<dollars>', description: 'the most dollars allowed (by the price table)' },
    'max-tokens': { type: 'string', value: '<n>', description: 'the most tokens (input and output) allowed' },
    per: { type: 'string', value: '<scope>', choices: ['test', 'suite'], default: 'suite', description: 'apply each gate to each test or to the whole suite' },
    'no-regressions': { type: 'boolean', description: 'fail when a test regressed against --baseline (regression or noise, as `reagent-flow compare`)' },
    ...BASELINE_OPTIONS,
  },
  positionals: { min: 1, max: 1, names: 'results file' },
  examples: [
    'reagent-flow ci gate .reagent/results/results.json --min-pass-rate 95% --max-usd 2',
    'reagent-flow ci gate merged.json --per test --max-tokens 20000',
    'reagent-flow ci gate .reagent/results/results.json --no-regressions --baseline main-results/',
  ],
  async run(input, ctx) {
    const gates: Gates = {
      minPassRate: passRateOption(input.options['min-pass-rate']),
      maxUsd: amountOption(input, 'max-usd', '2.50', false),
      maxTokens: amountOption(input, 'max-tokens', '20000', true),
      per: input.options.per === 'test' ? 'test' : 'suite',
    }
    const noRegressions = input.options['no-regressions'] === true
    const baseline = input.options.baseline as string | undefined
    if (noRegressions && baseline === undefined)
      throw new UsageError("--no-regressions needs --baseline <results>: a results file or a folder of them, such as main's last runs")
    if (!noRegressions && baseline !== undefined) throw new UsageError('--baseline is for --no-regressions: add it, or leave --baseline out')
    if (gates.minPassRate === undefined && gates.maxUsd === undefined && gates.maxTokens === undefined && !noRegressions) {
      throw new UsageError('no gate given: pass --min-pass-rate, --max-usd, --max-tokens or --no-regressions (or several)')
    }
    const file = input.positionals[0]!
    const lines = checkGates(readResultsFile(file), gates)
    if (noRegressions) lines.push(...regressionLines(baseline!, compareWith(await resolveBaseline(baseline!), file, input)))
    const passed = lines.every((line) => line.passed)
    if (ctx.json) ctx.printJson({ passed, lines })
    else for (const line of lines) ctx.print(line.passed ? `${ctx.c.green('✓')} ${line.text}` : `${ctx.c.red('✗')} ${line.text}`)
    return passed ? EXIT_OK : EXIT_CHECK_FAILED
  },
}

/** The no-regressions gate: one line for the comparison, then one per regressed test with the figures that regressed. */
function regressionLines(baseline: string, { split, comparison }: ComparisonReport): GateLine[] {
  const regressed = split.gated.filter((test) => test.verdict === 'regressed')
  const kept = split.quarantined.length === 0 ? '' : ` (${split.quarantined.length} quarantined, not gated)`
  const lines: GateLine[] = [
    {
      passed: regressed.length === 0,
      text: `no-regressions against ${baseline} at ${Math.round(comparison.confidence * 1000) / 10}% confidence: ${regressed.length} of ${split.gated.length} tests regressed${kept}`,
    },
  ]
  for (const test of regressed) {
    const figures = test.figures.filter((figure) => figure.verdict === 'regressed').map(figureLine)
    lines.push({ passed: false, text: `no-regressions: "${test.id}" regressed: ${figures.join('; ')}` })
  }
  return lines
}
