/**
 * A comparison of two sets of runs, as `reagent-flow compare` and
 * `ci gate --no-regressions` print it: the tests that regressed first,
 * each with the figures that did, then those that improved, the ones too
 * close to call that more runs could settle, the tests only one side ran,
 * flaky tests and the quarantine. Plain lines; colour comes from the caller.
 */
import { formatPercent } from '../report/format-value.js'
import type { Comparison, FigureComparison, FlakyTest, QuarantineSplit, TestComparison, TestRuns } from '../compare/index.js'
import { describeVerdict } from '../compare/index.js'
import type { Colors } from '../report/colors.js'
import { formatUsd } from '../trace/cost.js'

const FIGURE_NAMES: Readonly<Record<FigureComparison['figure'], string>> = {
  pass_rate: 'pass rate',
  tokens: 'tokens',
  usd: 'dollars',
  duration_ms: 'duration',
  turns: 'turns',
  tool_calls: 'tool calls',
}

function shownValue(figure: FigureComparison['figure'], value: number): string {
  if (figure === 'usd') return formatUsd(value)
  if (figure === 'duration_ms') return value >= 1000 ? `${Math.round(value / 100) / 10} s` : `${Math.round(value)} ms`
  return String(Math.round(value * 100) / 100)
}

function pValue(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : String(Math.round(p * 10_000) / 10_000)
}

/** One figure: what each side measured, and how sure the verdict is. */
export function figureLine(figure: FigureComparison): string {
  const name = FIGURE_NAMES[figure.figure]
  const sides =
    figure.figure === 'pass_rate'
      ? `${figure.baseline.passed}/${figure.baseline.n} (${formatPercent(figure.baseline.rate)}) -> ${figure.current.passed}/${figure.current.n} (${formatPercent(figure.current.rate)})`
      : `median ${shownValue(figure.figure, figure.baseline.median)} -> ${shownValue(figure.figure, figure.current.median)} (${figure.baseline.n} and ${figure.current.n} runs)`
  // Within noise, with an effect more runs could confirm: how many (describeVerdict says it for too few runs).
  const more = figure.reason === 'within noise' && figure.needs !== undefined ? `, ${figure.needs.current} runs per side would tell` : ''
  return `${name}: ${sides}, p ${pValue(figure.p)} (adjusted ${pValue(figure.adjustedP)}): ${describeVerdict(figure)}${more}`
}

/** The figures of `test` with a verdict (or, for an unchanged one, a number of runs that would settle it). */
function telling(test: TestComparison): FigureComparison[] {
  if (test.verdict !== 'unchanged') return test.figures.filter((figure) => figure.verdict === test.verdict)
  return test.figures.filter((figure) => figure.needs !== undefined)
}

export interface ComparisonReport {
  baseline: { path: string; files: number }
  current: { path: string; files: number }
  comparison: Comparison
  split: QuarantineSplit<TestComparison>
  flaky: FlakyTest[]
  /** Each side's tests with their runs, as compared: the report and the viewer chart them. */
  runs: { baseline: TestRuns[]; current: TestRuns[] }
}

function runsOn(test: TestComparison): number {
  return test.figures[0]?.figure === 'pass_rate' ? test.figures[0].current.n : 0
}

/** The report, line by line. */
export function comparisonLines(report: ComparisonReport, c: Colors): string[] {
  const { comparison, split } = report
  const lines: string[] = []
  const gated = split.gated
  const count = (verdict: TestComparison['verdict']): number => gated.filter((test) => test.verdict === verdict).length
  lines.push(
    `${comparison.tests.length} test${comparison.tests.length === 1 ? '' : 's'} compared: baseline ${report.baseline.path} (${report.baseline.files} results file${report.baseline.files === 1 ? '' : 's'}), ` +
      `current ${report.current.path} (${report.current.files} results file${report.current.files === 1 ? '' : 's'}), at ${formatPercent(comparison.confidence)} confidence (Benjamini–Hochberg)`,
  )
  lines.push(
    `${count('regressed')} regressed, ${count('improved')} improved, ${count('unchanged')} unchanged${split.quarantined.length > 0 ? `, ${split.quarantined.length} quarantined` : ''}`,
  )
  for (const verdict of ['regressed', 'improved', 'unchanged'] as const) {
    for (const test of gated.filter((one) => one.verdict === verdict)) {
      const figures = telling(test)
      if (verdict === 'unchanged' && figures.length === 0) continue
      const mark = verdict === 'regressed' ? c.red('✗ regressed') : verdict === 'improved' ? c.green('✓ improved') : c.dim('· unchanged')
      lines.push('')
      lines.push(`${mark}  ${test.id}  (${runsOn(test)} current run${runsOn(test) === 1 ? '' : 's'})`)
      for (const figure of figures) lines.push(`    ${figureLine(figure)}`)
    }
  }
  const listed = (title: string, ids: readonly string[]): void => {
    if (ids.length === 0) return
    lines.push('', title)
    for (const id of ids) lines.push(`  ${id}`)
  }
  listed('Only in the baseline (removed or renamed):', comparison.onlyInBaseline)
  listed('Only in the current runs (new or renamed):', comparison.onlyInCurrent)
  if (report.flaky.length > 0) {
    lines.push('', 'Flaky (runs of one commit both passed and failed):')
    for (const flaky of report.flaky) {
      lines.push(`  ${flaky.id}  on ${flaky.commit ?? 'an unknown commit'}: ${flaky.passed} passed, ${flaky.failed} failed`)
    }
  }
  if (split.quarantined.length > 0) {
    lines.push('', 'Quarantined (compared, not gated):')
    for (const { test, entry } of split.quarantined) lines.push(`  ${test.id}: ${test.verdict}; ${entry.reason} (since ${entry.date})`)
  }
  if (split.unmatched.length > 0) {
    lines.push('', 'Quarantine entries that match no compared test (remove them if the test is gone):')
    for (const entry of split.unmatched) lines.push(`  ${entry.test}`)
  }
  return lines
}
