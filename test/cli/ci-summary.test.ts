/**
 * `reagent-flow ci summary` (the built CLI) over a results file with hostile
 * names: the Markdown and JUnit files are the pure renderings' bytes, and the
 * JUnit XML is read back by a strict XML parser (Python's expat, where
 * python3 is installed: Node has none) with every name as it was.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resultsJunit } from '../../src/results/junit.js'
import { resultsMarkdown } from '../../src/results/markdown.js'
import { renderResults } from '../../src/results/results-file.js'
import { tempDir } from '../helpers/temp-dir.js'
import { HOSTILE_RESULTS, testOf } from '../results/ci-fixture.js'
import { runCli } from './run-cli.js'

const hasPython = spawnSync('python3', ['--version']).status === 0

const RESULTS = {
  ...HOSTILE_RESULTS,
  tests: [...HOSTILE_RESULTS.tests, testOf("ansi \u001b[31mred\u001b[0m\tand 'quote'", 'failed', [], { file: 'test/b.test.ts', failure: 'x\u0000y' })],
}

/** The XML parsed by expat: each testsuite's name and counts, each testcase's attributes, properties and failure message. */
const READ_JUNIT = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'testsuites'
print(json.dumps([{
  'suite': s.attrib,
  'cases': [{
    'attrib': c.attrib,
    'properties': {p.get('name'): p.get('value') for p in c.iter('property')},
    'failure': None if c.find('failure') is None else c.find('failure').get('message'),
    'skipped': c.find('skipped') is not None,
  } for c in s.findall('testcase')],
} for s in root.findall('testsuite')]))
`

describe('reagent-flow ci summary', () => {
  it('writes the Markdown and the JUnit XML of a results file', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'results.json'), renderResults(RESULTS))
    expect(runCli(['ci', 'summary', 'results.json', '--markdown', 'out/agents.md', '--junit', 'out/agents.xml'], dir)).toEqual({
      code: 0,
      stdout: 'wrote the Markdown summary to out/agents.md\nwrote the JUnit XML to out/agents.xml\n',
      stderr: '',
    })
    expect(readFileSync(join(dir, 'out', 'agents.md'), 'utf8')).toBe(resultsMarkdown(RESULTS))
    expect(readFileSync(join(dir, 'out', 'agents.xml'), 'utf8')).toBe(resultsJunit(RESULTS))
  })

  it('prints the Markdown when given no file to write', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'results.json'), renderResults(RESULTS))
    expect(runCli(['ci', 'summary', 'results.json'], dir)).toEqual({ code: 0, stdout: resultsMarkdown(RESULTS), stderr: '' })
  })

  it('refuses a results file that is not one, in one line', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'results.json'), '{"results_version": 1')
    const { code, stderr } = runCli(['ci', 'summary', 'results.json', '--junit', 'a.xml'], dir)
    expect(code).toBe(2)
    expect(stderr).toMatch(/^reagent-flow ci summary: results\.json is not a complete JSON file \(.+\): it was cut short or is not a results file\. .+\n$/)
  })

  it.skipIf(!hasPython)('writes JUnit XML that a strict XML parser reads back with every name, figure and message as it was', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'results.json'), renderResults(RESULTS))
    runCli(['ci', 'summary', 'results.json', '--junit', 'agents.xml'], dir)
    const read = spawnSync('python3', ['-c', READ_JUNIT, join(dir, 'agents.xml')], { encoding: 'utf8' })
    expect(read.stderr).toBe('')
    const suites = JSON.parse(read.stdout) as Array<{ suite: Record<string, string>; cases: Array<Record<string, unknown>> }>
    expect(suites.map(({ suite }) => [suite.name, suite.tests, suite.failures, suite.skipped])).toEqual([
      ['test/agent.test.ts', '5', '1', '1'],
      ['test/odd,file:name.test.ts', '1', '1', '0'],
      ['test/b.test.ts', '1', '1', '0'],
    ])
    const cases = suites.flatMap((suite) => suite.cases)
    expect(cases.map((c) => (c.attrib as Record<string, string>).name)).toEqual([
      'refunds | pipes & <script>alert(1)</script>',
      'no agent here',
      'refunds reliably',
      'later',
      'broke before a run',
      'multi\nline *name*',
      // Characters XML cannot hold come back as \\u text; the tab survives.
      "ansi \\u001b[31mred\\u001b[0m\tand 'quote'",
    ])
    expect(cases[5]).toEqual({
      attrib: { classname: 'test/odd,file:name.test.ts', name: 'multi\nline *name*', file: 'test/odd,file:name.test.ts', line: '12', time: '0.013' },
      properties: { tokens: '420', usd: '0.00009', turns: '3', tool_calls: '2', runs: '1', pass_rate: '0', golden: 'none' },
      failure: 'expected "sk-live-1234567890abcdef" to be called: 100% of $0.01, a\r\nb',
      skipped: false,
    })
    expect(cases[3]).toMatchObject({ skipped: true, properties: {} })
  })
})
