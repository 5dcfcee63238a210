import { describe, expect, it } from 'vitest'
import { checkGates } from '../../src/results/gates.js'
import type { RunResult, RunResults, TestResult } from '../../src/results/types.js'

function runOf(status: RunResult['status'], tokens: number | null, usd: number | null): RunResult {
  return { name: 'r', status, trace: null, tokens, usd, turns: 1, tool_calls: 0, duration_ms: 1 }
}

function testOf(name: string, outcome: TestResult['outcome'], runs: RunResult[]): TestResult {
  return { file: 'test/a.test.ts', name, line: null, outcome, duration_ms: 1, failure: null, golden: 'none', runs }
}

function resultsOf(tests: TestResult[]): RunResults {
  return { results_version: 1, reagent_flow_version: '0', shard: null, started_at: 0, ended_at: 1, commit: null, branch: null, tests }
}

describe('ci gate', () => {
  it('fails a pass-rate gate of a suite that ran no test (skipped tests count nowhere)', () => {
    expect(checkGates(resultsOf([testOf('later', 'skipped', [])]), { minPassRate: 0.5, per: 'suite' })).toEqual([
      { passed: false, text: 'min-pass-rate 50%: the suite ran no test' },
    ])
  })

  it("per test, a run set's runs that did not complete count against it, a test without runs is one run, and an unpriced run costs 0", () => {
    const results = resultsOf([
      testOf('run set', 'passed', [runOf('completed', 10, 0.5), runOf('failed', 10, null), runOf('completed', 10, 0.25), runOf('completed', 10, null)]),
      testOf('plain', 'passed', []),
      testOf('broken', 'failed', []),
    ])
    expect(checkGates(results, { minPassRate: 0.7, maxUsd: 0.75, per: 'test' })).toEqual([
      { passed: false, text: 'min-pass-rate 70%: test/a.test.ts "broken" passed 0% (0 of 1 run)' },
      { passed: true, text: 'max-usd $0.75: each of 3 tests kept it' },
    ])
    expect(checkGates(results, { minPassRate: 0.8, per: 'test' })[0]).toEqual({
      passed: false,
      text: 'min-pass-rate 80%: test/a.test.ts "run set" passed 75% (3 of 4 runs)',
    })
  })

  it('takes a sum a hair over the limit from float noise as within it', () => {
    const results = resultsOf([testOf('a', 'passed', [runOf('completed', 1, 0.0012), runOf('completed', 1, 0.00052)])])
    expect(checkGates(results, { maxUsd: 0.00172, per: 'suite' })).toEqual([{ passed: true, text: 'max-usd $0.0017: the suite cost $0.0017' }])
  })
})
