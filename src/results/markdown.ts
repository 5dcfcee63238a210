/**
 * The Markdown of a run's results: what the GitHub Actions job summary, the
 * pull-request comment (`reagent-flow ci comment`) and `reagent-flow ci
 * summary --markdown` show, so all three say the same thing. Pure: results
 * in, text out.
 *
 * The agent tests (those that opened a session) in a table, failures first,
 * each with its outcome, runs (and a run set's pass rate), tokens, dollars,
 * turns, tool calls and golden; a line of totals above it; the failing
 * assertions below it. Names and failure lines come from the results file as
 * they are (no trace content is in it): every piece of them is escaped, so a
 * `|`, a newline, `<script>` or a `*` in a test name is shown, not obeyed.
 */
import { formatPercent, plural } from '../report/format-value.js'
import { formatUsd } from '../trace/cost.js'
import { type ComparisonReport, figureLine } from './comparison-lines.js'
import { runsPassed } from './gates.js'
import type { RunResult, RunResults, TestResult } from './types.js'

export interface MarkdownOptions {
  /** Added to the heading, `### reagent-flow: agent tests · <title>` (which suite, when a pull request has several). */
  title?: string | undefined
  /** At most this many tests in the table (failures come first, so they are kept); the others are counted in a line below it. Default: all. */
  maxRows?: number | undefined
  /** What changed against a baseline (`--baseline`): a section below the table, the tests that regressed first. */
  comparison?: ComparisonReport | undefined
}

/** A failing assertion is cut to this many characters: the full line is in vitest's output and the results file. */
const MAX_FAILURE_CHARS = 500

/**
 * Text shown as it is in Markdown (GitHub's flavour): HTML's `&` and `<`,
 * Markdown's punctuation that could start emphasis, code, a link, a table
 * cell or math, backslash-escaped; a line break as `<br>` (a table row is one line).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*_[\]|~$]/g, '\\$&')
    .replace(/\r\n|\r|\n/g, '<br>')
}

function sum(runs: readonly RunResult[], figure: (run: RunResult) => number | null): number | null {
  const known = runs.map(figure).filter((value): value is number => value !== null)
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0)
}

function place(test: TestResult): string {
  return `${test.file}${test.line === null ? '' : `:${test.line}`}`
}

function runsCell(test: TestResult): string {
  if (test.runs.length === 1) return '1'
  const { passed, of } = runsPassed(test)
  return `${of} (${formatPercent(passed / of)} passed)`
}

function row(test: TestResult): string {
  const usd = sum(test.runs, (run) => run.usd)
  const tokens = sum(test.runs, (run) => run.tokens)
  const cells = [
    `${escapeMarkdown(test.name)}<br>${escapeMarkdown(place(test))}`,
    test.outcome === 'failed' ? '❌ failed' : test.outcome === 'passed' ? '✅ passed' : test.outcome,
    runsCell(test),
    tokens === null ? '–' : String(tokens),
    usd === null ? '–' : formatUsd(usd),
    String(sum(test.runs, (run) => run.turns) ?? 0),
    String(sum(test.runs, (run) => run.tool_calls) ?? 0),
    test.golden === 'none' ? '–' : test.golden,
  ]
  return `| ${cells.join(' | ')} |`
}

function headline(agentTests: readonly TestResult[], results: RunResults): string {
  const failed = agentTests.filter((test) => test.outcome === 'failed').length
  // A failed test that opened no session is not in the table, but the run failed: a green tick alone would say otherwise.
  const othersFailed = results.tests.filter((test) => test.outcome === 'failed' && test.runs.length === 0).length
  const runs = agentTests.flatMap((test) => test.runs)
  const tokens = sum(runs, (run) => run.tokens)
  const usd = sum(runs, (run) => run.usd)
  const verdict =
    failed > 0 ? `❌ **${failed} of ${plural(agentTests.length, 'agent test')} failed**` : `✅ **${plural(agentTests.length, 'agent test')} passed**`
  const parts = [verdict]
  if (othersFailed > 0) parts.push(`${plural(othersFailed, 'other test')} failed`)
  parts.push(plural(runs.length, 'run'), `${tokens ?? 0} tokens`, `${usd === null ? '$0' : formatUsd(usd)} spent`)
  if (results.commit !== null)
    parts.push(`commit ${escapeMarkdown(results.commit.slice(0, 7))}${results.branch === null ? '' : ` on ${escapeMarkdown(results.branch)}`}`)
  if (results.merged_shards !== undefined) parts.push(`${plural(results.merged_shards.length, 'shard')} merged`)
  else if (results.shard !== null) parts.push(`shard ${results.shard.index}/${results.shard.count}`)
  return parts.join(' · ')
}

function failureLine(test: TestResult): string {
  const failure = test.failure ?? 'failed (no error message)'
  const shown = failure.length > MAX_FAILURE_CHARS ? `${failure.slice(0, MAX_FAILURE_CHARS - 1)}…` : failure
  return `- ${escapeMarkdown(test.name)} (${escapeMarkdown(place(test))}): ${escapeMarkdown(shown)}`
}

/** The Markdown of `results`: a heading, a line of totals, the table of agent tests (failures first) and the failing assertions. Ends with a newline. */
export function resultsMarkdown(results: RunResults, options: MarkdownOptions = {}): string {
  const lines = [`### reagent-flow: agent tests${options.title === undefined ? '' : ` · ${escapeMarkdown(options.title)}`}`, '']
  const agentTests = results.tests.filter((test) => test.runs.length > 0)
  if (agentTests.length === 0) {
    lines.push('No agent test ran: no test of this run opened a session.')
    return `${lines.join('\n')}\n`
  }
  const failures = agentTests.filter((test) => test.outcome === 'failed')
  const ordered = [...failures, ...agentTests.filter((test) => test.outcome !== 'failed')]
  const shown = ordered.slice(0, options.maxRows ?? ordered.length)
  lines.push(headline(agentTests, results), '')
  lines.push('| test | outcome | runs | tokens | USD | turns | tool calls | golden |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |')
  lines.push(...shown.map(row))
  if (shown.length < ordered.length) lines.push('', `…and ${plural(ordered.length - shown.length, 'more agent test')}: the results file lists every one.`)
  const shownFailures = failures.slice(0, shown.length)
  if (shownFailures.length > 0) lines.push('', '**Failures**', '', ...shownFailures.map(failureLine))
  if (options.comparison !== undefined) lines.push('', ...comparisonMarkdown(options.comparison))
  return `${lines.join('\n')}\n`
}

/** The tests that regressed or improved against the baseline, each with the figures that did; the others counted. */
function comparisonMarkdown({ baseline, comparison, split }: ComparisonReport): string[] {
  const count = (verdict: string): number => split.gated.filter((test) => test.verdict === verdict).length
  const confidence = formatPercent(comparison.confidence)
  const counts = [`${count('regressed')} regressed`, `${count('improved')} improved`, `${count('unchanged')} unchanged (within noise)`]
  if (split.quarantined.length > 0) counts.push(`${split.quarantined.length} quarantined`)
  const lines = [`**Against the baseline** (${escapeMarkdown(baseline.path)}, ${confidence} confidence): ${counts.join(', ')}`]
  for (const verdict of ['regressed', 'improved'] as const) {
    for (const test of split.gated.filter((one) => one.verdict === verdict)) {
      const figures = test.figures.filter((figure) => figure.verdict === verdict).map((figure) => escapeMarkdown(figureLine(figure)))
      lines.push(`- ${verdict === 'regressed' ? '📉 **regressed**' : '📈 improved'} ${escapeMarkdown(test.id)}: ${figures.join('; ')}`)
    }
  }
  return lines
}

/**
 * The Markdown of `results` as long as `fits` takes it: with the table's
 * rows halved (failures are kept first) until it does. For GitHub's limits:
 * 65,536 characters a comment, 1 MiB a step's summary.
 */
export function resultsMarkdownThatFits(results: RunResults, fits: (markdown: string) => boolean, title?: string, comparison?: ComparisonReport): string {
  let maxRows: number | undefined
  for (;;) {
    const markdown = resultsMarkdown(results, { maxRows, title, comparison })
    if (fits(markdown) || maxRows === 0) return markdown
    maxRows = Math.floor((maxRows ?? results.tests.length) / 2)
  }
}
