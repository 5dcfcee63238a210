/**
 * The Comparison page: regression or noise, as `reagent-flow compare` says
 * it, with the runs behind each verdict. One row group per compared test
 * (regressed first, quarantined last), one row per figure: baseline and
 * current (pass rate or median, with n), the verdict, the p-value before and
 * after Benjamini–Hochberg, and a chart of both sides' runs. Then the tests
 * only one side ran, the flaky tests and the quarantine entries left over.
 */
import type { ComparedFigure, ComparedTest, ComparisonPayload } from '../types.js'
import { passRateChart, stripChart } from './charts.js'
import { type Child, fill, h } from './dom.js'
import { formatCount, formatDuration, formatUsd } from './format.js'
import type { PageHandle } from './page.js'
import { runsHref } from './router.js'
import type { Source } from './source.js'

const FIGURE_NAMES: Readonly<Record<ComparedFigure['figure'], string>> = {
  pass_rate: 'Pass rate',
  tokens: 'Tokens',
  usd: 'Dollars',
  duration_ms: 'Duration',
  turns: 'Turns',
  tool_calls: 'Tool calls',
}

const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`

function shownValue(figure: ComparedFigure['figure'], value: number): string {
  if (figure === 'usd') return formatUsd(value)
  if (figure === 'duration_ms') return formatDuration(value)
  return formatCount(Math.round(value * 100) / 100)
}

/** As the command line writes p-values: four decimals, or a power of ten below 0.0001. */
function pValue(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : String(Math.round(p * 10_000) / 10_000)
}

function sideCell(figure: ComparedFigure, side: 'baseline' | 'current'): HTMLElement {
  if (figure.figure === 'pass_rate') {
    const rate = figure[side]
    return h('td', { class: 'num' }, `${rate.passed}/${rate.n} (${percent(rate.rate)})`, h('div', { class: 'muted' }, `n = ${rate.n}`))
  }
  const summary = figure[side]
  return h('td', { class: 'num' }, `median ${shownValue(figure.figure, summary.median)}`, h('div', { class: 'muted' }, `n = ${summary.n}`))
}

function figureRow(test: ComparedTest, figure: ComparedFigure): HTMLElement {
  const chart =
    figure.figure === 'pass_rate'
      ? passRateChart(test.baseline_runs, test.current_runs)
      : stripChart(figure.figure, test.baseline_runs, test.current_runs, (value) => shownValue(figure.figure, value))
  const more =
    figure.reason === 'within noise' && figure.needs !== undefined ? h('div', { class: 'muted' }, `${figure.needs.current} runs per side would tell`) : null
  return h(
    'tr',
    { data: { figure: figure.figure } },
    h('th', { role: 'rowheader', class: 'figure-name' }, FIGURE_NAMES[figure.figure]),
    sideCell(figure, 'baseline'),
    sideCell(figure, 'current'),
    h('td', null, h('span', { class: `badge verdict verdict-${figure.verdict}` }, figure.verdict_text), more),
    h('td', { class: 'num' }, pValue(figure.p)),
    h('td', { class: 'num' }, pValue(figure.adjustedP)),
    h('td', { class: 'chart-cell' }, chart),
  )
}

function testRows(test: ComparedTest): HTMLElement {
  return h(
    'tbody',
    { class: 'compared-test', data: { test: test.id, verdict: test.verdict } },
    h(
      'tr',
      { class: 'group' },
      h(
        'th',
        { colspan: 7, role: 'rowheader' },
        h('span', { class: `badge verdict verdict-${test.verdict}` }, test.verdict),
        ' ',
        h('span', { class: 'test-id' }, test.id),
        test.quarantined === null
          ? null
          : h('div', { class: 'muted quarantined' }, `quarantined since ${test.quarantined.date}: ${test.quarantined.reason} (compared, not gated)`),
      ),
    ),
    test.figures.map((figure) => figureRow(test, figure)),
  )
}

function listed(title: string, items: readonly Child[]): Child {
  if (items.length === 0) return null
  return h(
    'section',
    { class: 'compare-list' },
    h('h2', null, title),
    h(
      'ul',
      null,
      items.map((item) => h('li', null, item)),
    ),
  )
}

function counts(payload: ComparisonPayload): string {
  const gated = payload.tests.filter((test) => test.quarantined === null)
  const count = (verdict: ComparedTest['verdict']): number => gated.filter((test) => test.verdict === verdict).length
  const quarantined = payload.tests.length - gated.length
  return `${count('regressed')} regressed, ${count('improved')} improved, ${count('unchanged')} unchanged${quarantined > 0 ? `, ${quarantined} quarantined` : ''}`
}

function files(side: ComparisonPayload['baseline']): string {
  return `${side.path} (${side.files} results file${side.files === 1 ? '' : 's'})`
}

function draw(root: HTMLElement, payload: ComparisonPayload): void {
  const tests = payload.tests.length
  fill(
    root,
    h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / Comparison'),
    h('h1', null, 'Comparison'),
    h(
      'p',
      { class: 'compare-sides' },
      `${tests} test${tests === 1 ? '' : 's'} compared: baseline ${files(payload.baseline)}, current ${files(payload.current)}, at ${percent(payload.confidence)} confidence (Benjamini–Hochberg).`,
    ),
    h('p', { class: 'count', role: 'status' }, counts(payload)),
    h(
      'div',
      { class: 'runs-table-wrap' },
      h(
        'table',
        { class: 'comparison' },
        h('caption', { class: 'visually-hidden' }, 'Each test: baseline against current, figure by figure'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Figure', 'Baseline', 'Current', 'Verdict', 'p', 'Adjusted p', 'Runs'].map((title) =>
              h('th', { class: title === 'p' || title === 'Adjusted p' ? 'num' : undefined }, title),
            ),
          ),
        ),
        payload.tests.map(testRows),
      ),
    ),
    listed('Only in the baseline (removed or renamed)', payload.only_in_baseline),
    listed('Only in the current runs (new or renamed)', payload.only_in_current),
    listed(
      'Flaky (runs of one commit both passed and failed)',
      payload.flaky.map((flaky) => [h('code', null, flaky.id), ` on ${flaky.commit ?? 'an unknown commit'}: ${flaky.passed} passed, ${flaky.failed} failed`]),
    ),
    listed(
      'Quarantine entries that match no compared test (remove them if the test is gone)',
      payload.unmatched_quarantine.map((entry) => [h('code', null, entry.test), `: ${entry.reason} (since ${entry.date})`]),
    ),
  )
}

export function renderComparePage(root: HTMLElement, source: Source): PageHandle {
  let stopped = false
  const heading = (): Child[] => [h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / Comparison'), h('h1', null, 'Comparison')]
  fill(root, heading(), h('p', { class: 'loading' }, 'Comparing…'))
  source.comparison().then(
    (payload) => {
      if (!stopped) draw(root, payload)
    },
    (error: unknown) => {
      if (!stopped) fill(root, heading(), h('p', { class: 'error-box', role: 'alert' }, (error as Error).message))
    },
  )
  return {
    cleanup() {
      stopped = true
    },
  }
}
