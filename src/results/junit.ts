/**
 * A run's results as JUnit XML, the report format every CI reads (GitLab,
 * Jenkins, Azure Pipelines, CircleCI, Buildkite): `reagent-flow ci summary
 * --junit`. Pure: results in, text out.
 *
 * One `<testsuite>` per test file, one `<testcase>` per test in the order of
 * the results; a failed test has a `<failure>` with its first failing
 * assertion, a skipped one `<skipped/>`. An agent test (one with runs) has
 * `<properties>` with its figures (tokens, usd, turns, tool_calls, runs,
 * pass_rate, golden), as pytest's `record_property` writes them, which
 * GitLab and Jenkins show beside the test.
 *
 * Every name and message is escaped: the five XML entities, a carriage
 * return as a reference, tab and line feed too inside attributes (a parser would turn
 * them into spaces), and the characters XML 1.0 cannot hold at all (other
 * control characters, lone surrogates) written as `\uXXXX` text, so an ANSI
 * colour code in an error message does not make the file unreadable.
 */
import { runsPassed } from './gates.js'
import type { RunResults, TestResult } from './types.js'

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Characters XML 1.0 does not allow, even as references; a surrogate is allowed only as half of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what the pattern is there to find
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** `text` as XML character data; a carriage return as a reference, since a parser would drop it from `\r\n`. */
export function escapeXmlText(text: string): string {
  return text
    .replace(NOT_XML, unicodeEscape)
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
    .replace(/\r/g, '&#13;')
}

/** `text` as an XML attribute value (inside double quotes). */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;')
}

function attributes(pairs: ReadonlyArray<[string, string | number | null]>): string {
  return pairs
    .filter((pair): pair is [string, string | number] => pair[1] !== null)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('')
}

/** Milliseconds as JUnit's seconds, to the millisecond. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3)
}

/** A figure without float noise (0.00012 + 0.00009 is 0.00021, not 0.00020999999999999998). */
function figure(value: number): string {
  return String(Number(value.toPrecision(12)))
}

function sumOf(test: TestResult, pick: (run: TestResult['runs'][number]) => number | null): number | null {
  const known = test.runs.map(pick).filter((value): value is number => value !== null)
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0)
}

function properties(test: TestResult): string[] {
  const { passed, of } = runsPassed(test)
  const tokens = sumOf(test, (run) => run.tokens)
  const usd = sumOf(test, (run) => run.usd)
  const pairs: Array<[string, string | null]> = [
    ['tokens', tokens === null ? null : figure(tokens)],
    ['usd', usd === null ? null : figure(usd)],
    ['turns', figure(sumOf(test, (run) => run.turns) ?? 0)],
    ['tool_calls', figure(sumOf(test, (run) => run.tool_calls) ?? 0)],
    ['runs', String(test.runs.length)],
    ['pass_rate', figure(passed / of)],
    ['golden', test.golden],
  ]
  const lines = pairs
    .filter(([, value]) => value !== null)
    .map(
      ([name, value]) =>
        `        <property${attributes([
          ['name', name],
          ['value', value],
        ])}/>`,
    )
  return ['      <properties>', ...lines, '      </properties>']
}

function testCase(test: TestResult): string[] {
  const head = `    <testcase${attributes([
    ['classname', test.file],
    ['name', test.name],
    ['file', test.file],
    ['line', test.line],
    ['time', test.duration_ms === null ? null : seconds(test.duration_ms)],
  ])}`
  const body: string[] = test.runs.length > 0 ? properties(test) : []
  if (test.outcome === 'failed') {
    const message = test.failure ?? 'the test failed with no error message'
    const traces = test.runs.flatMap((run) => (run.trace === null ? [] : [`trace: ${run.trace}`]))
    body.push(`      <failure${attributes([['message', message]])}>${escapeXmlText([message, ...traces].join('\n'))}</failure>`)
  }
  if (test.outcome === 'skipped') body.push('      <skipped/>')
  return body.length === 0 ? [`${head}/>`] : [`${head}>`, ...body, '    </testcase>']
}

function counts(tests: readonly TestResult[]): Array<[string, number]> {
  return [
    ['tests', tests.length],
    ['failures', tests.filter((test) => test.outcome === 'failed').length],
    ['errors', 0],
    ['skipped', tests.filter((test) => test.outcome === 'skipped').length],
  ]
}

/** The JUnit XML of `results`. Ends with a newline. */
export function resultsJunit(results: RunResults): string {
  const files = new Map<string, TestResult[]>()
  for (const test of results.tests) files.set(test.file, [...(files.get(test.file) ?? []), test])
  const timestamp = new Date(results.started_at * 1000).toISOString().slice(0, 19)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes([['name', 'reagent-flow'], ...counts(results.tests), ['time', seconds((results.ended_at - results.started_at) * 1000)]])}>`,
  ]
  for (const [file, tests] of files) {
    const time = seconds(tests.reduce((total, test) => total + (test.duration_ms ?? 0), 0))
    lines.push(`  <testsuite${attributes([['name', file], ...counts(tests), ['time', time], ['timestamp', timestamp]])}>`)
    lines.push(...tests.flatMap(testCase), '  </testsuite>')
  }
  lines.push('</testsuites>')
  return `${lines.join('\n')}\n`
}
