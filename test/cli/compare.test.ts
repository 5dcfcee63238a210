/**
 * `reagent-flow compare` and `ci gate --no-regressions` over folders of
 * results files, as CI artifacts of earlier runs are: one results file per
 * run of the suite, each in a folder of its own. The agents are seeded
 * (test/compare/seeded-agent.ts), so every run sees the same outcomes.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunResults, TestResult } from '../../src/results/types.js'
import { seededRuns } from '../compare/seeded-agent.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli } from './run-cli.js'

const REFUNDS = 'refunds order 42'
const LOOKS_UP = 'looks the order up'

/** A test of the results file with one agent run that passed or not (tokens and turns the same in every run: no figure but the pass rate moves). */
function agentTest(name: string, passed: boolean): TestResult {
  return {
    file: 'test/agent.test.ts',
    name,
    line: null,
    outcome: passed ? 'passed' : 'failed',
    duration_ms: 40,
    failure: passed ? null : 'expected the agent to call issue_refund',
    golden: 'none',
    runs: [{ name, status: 'completed', trace: null, tokens: 1200, usd: 0.01, turns: 3, tool_calls: 2, duration_ms: 35 }],
  }
}

/**
 * `runs` results files under `<dir>/<side>/run-<i>/results.json`, one run of the suite each, on `commit`:
 * the refund test passing as `refunds` says (one outcome per run), the lookup test always passing.
 */
function writeRuns(dir: string, side: string, commit: string, refunds: readonly boolean[]): string {
  const folder = join(dir, side)
  refunds.forEach((passed, i) => {
    const results: RunResults = {
      results_version: 1,
      reagent_flow_version: '0.1.0',
      shard: null,
      started_at: 1_765_000_000 + i,
      ended_at: 1_765_000_001 + i,
      commit,
      branch: side,
      tests: [agentTest(REFUNDS, passed), agentTest(LOOKS_UP, true)],
    }
    mkdirSync(join(folder, `run-${String(i + 1).padStart(2, '0')}`), { recursive: true })
    writeFileSync(join(folder, `run-${String(i + 1).padStart(2, '0')}`, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
  })
  return folder
}

const outcomes = (passRate: number, runs: number, seed: number): boolean[] => seededRuns(passRate, runs, seed).map((run) => run.passed)

/** `<dir>/results.json`: one build that ran the refund test as a run set of 20 runs (repeat()), 60% of them passing. */
function writeRunSet(dir: string): void {
  const runSet: TestResult = {
    ...agentTest(REFUNDS, true),
    runs: outcomes(0.6, 20, 1019).map((passed, i) => ({
      ...agentTest(REFUNDS, true).runs[0]!,
      name: `${REFUNDS} #${i + 1}`,
      status: passed ? 'completed' : 'failed',
    })),
  }
  const results: RunResults = {
    results_version: 1,
    reagent_flow_version: '0.1.0',
    shard: null,
    started_at: 1,
    ended_at: 2,
    commit: 'bbb222',
    branch: 'branch',
    tests: [runSet, agentTest(LOOKS_UP, true)],
  }
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results))
}

describe('reagent-flow compare', () => {
  it('calls a drop from 95% to 60% over 20 runs each a regression, naming the test and the figure, and exits 1', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 20, 19))
    writeRuns(dir, 'branch', 'bbb222', outcomes(0.6, 20, 1019))
    const { code, stdout, stderr } = runCli(['compare', 'main', 'branch'], dir)
    expect([code, stderr]).toEqual([1, ''])
    expect(stdout).toBe(
      '2 tests compared: baseline main (20 results files), current branch (20 results files), at 95% confidence (Benjamini–Hochberg)\n' +
        '1 regressed, 0 improved, 1 unchanged\n' +
        '\n' +
        '✗ regressed  test/agent.test.ts > refunds order 42  (20 current runs)\n' +
        '    pass rate: 19/20 (95%) -> 12/20 (60%), p 0.0197 (adjusted 0.0197): regressed\n' +
        '\n' +
        'Flaky (runs of one commit both passed and failed):\n' +
        '  test/agent.test.ts > refunds order 42  on aaa111: 19 passed, 1 failed\n' +
        '  test/agent.test.ts > refunds order 42  on bbb222: 12 passed, 8 failed\n',
    )
  })

  it('calls 95% against 90% over 10 runs each unchanged, within noise, says how many runs would tell, and exits 0', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 10, 5))
    writeRuns(dir, 'branch', 'bbb222', outcomes(0.9, 10, 5))
    const { code, stdout } = runCli(['compare', 'main', 'branch'], dir)
    expect(code).toBe(0)
    expect(stdout).toContain('0 regressed, 0 improved, 2 unchanged\n')
    expect(stdout).toMatch(
      /\n· unchanged {2}test\/agent\.test\.ts > refunds order 42 {2}\(10 current runs\)\n {4}pass rate: 10\/10 \(100%\) -> 9\/10 \(90%\), p 1 \(adjusted 1\): unchanged \(within noise\), 56 runs per side would tell\n/,
    )
  })

  it('keeps a quarantined test out of the verdict, with its reason and date, and lists flaky tests', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 20, 19))
    writeRuns(dir, 'branch', 'bbb222', outcomes(0.6, 20, 1019))
    writeFileSync(
      join(dir, 'quarantine.json'),
      JSON.stringify({ tests: [{ test: `test/agent.test.ts > ${REFUNDS}`, reason: 'the refund API sandbox is down', date: '2026-12-01' }] }),
    )
    const { code, stdout } = runCli(['compare', 'main', 'branch', '--quarantine', 'quarantine.json'], dir)
    expect(code).toBe(0)
    expect(stdout).toContain('0 regressed, 0 improved, 1 unchanged, 1 quarantined\n')
    expect(stdout).toContain(
      '\nFlaky (runs of one commit both passed and failed):\n' +
        '  test/agent.test.ts > refunds order 42  on aaa111: 19 passed, 1 failed\n' +
        '  test/agent.test.ts > refunds order 42  on bbb222: 12 passed, 8 failed\n' +
        '\nQuarantined (compared, not gated):\n' +
        '  test/agent.test.ts > refunds order 42: regressed; the refund API sandbox is down (since 2026-12-01)\n',
    )
  })

  it('prints the comparison as JSON with --json', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 20, 19))
    writeRuns(dir, 'branch', 'bbb222', outcomes(0.6, 20, 1019))
    const { code, stdout } = runCli(['compare', 'main', 'branch', '--json'], dir)
    const json = JSON.parse(stdout) as { regressed: boolean; comparison: { tests: Array<{ id: string; verdict: string }> } }
    expect([code, json.regressed, json.comparison.tests.map((test) => [test.id, test.verdict])]).toEqual([
      1,
      true,
      [
        [`test/agent.test.ts > ${LOOKS_UP}`, 'unchanged'],
        [`test/agent.test.ts > ${REFUNDS}`, 'regressed'],
      ],
    ])
  })

  it('refuses, with exit code 2 and one line, a baseline that shares no test, a folder without results, a file cut short and a bad confidence', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', [true])
    const other: RunResults = {
      results_version: 1,
      reagent_flow_version: '0.1.0',
      shard: null,
      started_at: 1,
      ended_at: 2,
      commit: null,
      branch: null,
      tests: [{ ...agentTest('something else', true), file: 'test/other.test.ts' }],
    }
    writeFileSync(join(dir, 'results.json'), JSON.stringify(other))
    mkdirSync(join(dir, 'empty'))
    writeFileSync(join(dir, 'results.cut.json'), '{"results_version": 1, "tests": [')
    expect(runCli(['compare', 'main', 'results.json'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow compare: results.json shares no test with the baseline main (1 tests here, 2 there). Compare results of the same suite: the tests are matched by file and full name.\n',
    })
    expect(runCli(['compare', 'empty', 'main'], dir).stderr).toBe(
      'reagent-flow compare: empty holds no results file (results*.json, at any depth). Give a folder of the results files the reporter wrote (.reagent/results/).\n',
    )
    expect(runCli(['compare', 'main', 'results.cut.json'], dir).stderr).toMatch(
      /^reagent-flow compare: results\.cut\.json is not a complete JSON file \(.*\): it was cut short or is not a results file\. /,
    )
    expect(runCli(['compare', 'main', 'main', '--confidence', '1'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow compare: --confidence must be between 0 and 1 (0.95) or a percentage (95%); got "1"\n',
    })
  })
})

describe('reagent-flow ci gate --no-regressions', () => {
  it('fails with one line per regressed test, against the baseline folder', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 20, 19))
    writeRunSet(dir)
    const { code, stdout } = runCli(['ci', 'gate', 'results.json', '--no-regressions', '--baseline', 'main', '--min-pass-rate', '50%'], dir)
    expect(code).toBe(1)
    expect(stdout).toBe(
      '✓ min-pass-rate 50%: the suite passed 100% (2 of 2 tests)\n' +
        '✗ no-regressions against main at 95% confidence: 1 of 2 tests regressed\n' +
        '✗ no-regressions: "test/agent.test.ts > refunds order 42" regressed: pass rate: 19/20 (95%) -> 12/20 (60%), p 0.0197 (adjusted 0.0197): regressed\n',
    )
  })

  it('needs --baseline, and --baseline needs it', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', [true])
    const file = join('main', 'run-01', 'results.json')
    expect(runCli(['ci', 'gate', file, '--no-regressions'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: "reagent-flow ci gate: --no-regressions needs --baseline <results>: a results file or a folder of them, such as main's last runs\n",
    })
    expect(runCli(['ci', 'gate', file, '--baseline', 'main'], dir).stderr).toBe(
      'reagent-flow ci gate: --baseline is for --no-regressions: add it, or leave --baseline out\n',
    )
  })
})

describe('reagent-flow ci summary --baseline', () => {
  it('adds what changed against the baseline below the table of the Markdown', () => {
    const dir = tempDir()
    writeRuns(dir, 'main', 'aaa111', outcomes(0.95, 20, 19))
    writeRunSet(dir)
    const { code, stdout } = runCli(['ci', 'summary', 'results.json', '--baseline', 'main'], dir)
    expect(code).toBe(0)
    expect(stdout.slice(stdout.indexOf('\n**Against the baseline**'))).toBe(
      '\n**Against the baseline** (main, 95% confidence): 1 regressed, 0 improved, 1 unchanged (within noise)\n' +
        '- 📉 **regressed** test/agent.test.ts > refunds order 42: pass rate: 19/20 (95%) -> 12/20 (60%), p 0.0197 (adjusted 0.0197): regressed\n',
    )
  })
})
