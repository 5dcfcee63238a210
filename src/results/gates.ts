/**
 * The gates of `reagent-flow ci gate`: a pass rate to reach, dollars and
 * tokens not to go over, for the suite as a whole or for each test. Each
 * check gives one line, saying which gate, which test (or the suite) and
 * which figure; a gate failed when one of its lines did.
 *
 * Skipped tests count nowhere. A test's pass rate is over its runs: a run
 * passed when it completed in a test that passed (the results do not keep a
 * run set's verdicts: a failed test's runs all count as failed); a test
 * without a run is one run, its outcome. The suite's pass rate is the share
 * of its tests that passed. A run the price table could not price costs 0.
 */
import { formatPercent, plural } from '../report/format-value.js'
import { formatUsd } from '../trace/cost.js'
import { runsOfTest } from './test-runs.js'
import type { RunResults, TestResult } from './types.js'

export interface Gates {
  /** From 0 to 1. */
  minPassRate?: number | undefined
  maxUsd?: number | undefined
  maxTokens?: number | undefined
  per: 'test' | 'suite'
}

export interface GateLine {
  passed: boolean
  text: string
}

function testLabel(test: TestResult): string {
  return `${test.file}${test.line === null ? '' : `:${test.line}`} "${test.name}"`
}

/** How many of a test's runs passed, of how many (the rule of test-runs.ts; also the pass rate the CI summaries show). */
export function runsPassed(test: TestResult): { passed: number; of: number } {
  const runs = runsOfTest(test, null)
  return { passed: runs.filter((run) => run.passed).length, of: runs.length }
}

function usdOf(tests: readonly TestResult[]): number {
  return tests.reduce((sum, test) => sum + test.runs.reduce((n, run) => n + (run.usd ?? 0), 0), 0)
}

function tokensOf(tests: readonly TestResult[]): number {
  return tests.reduce((sum, test) => sum + test.runs.reduce((n, run) => n + (run.tokens ?? 0), 0), 0)
}

/** Over a limit by more than float noise. */
function isOver(actual: number, limit: number): boolean {
  return actual - limit > 1e-9
}

function suiteLines(tests: readonly TestResult[], gates: Gates): GateLine[] {
  const lines: GateLine[] = []
  if (gates.minPassRate !== undefined) {
    const limit = gates.minPassRate
    const passed = tests.filter((test) => test.outcome === 'passed').length
    const rate = tests.length === 0 ? 0 : passed / tests.length
    const figure = tests.length === 0 ? 'ran no test' : `passed ${formatPercent(rate)} (${passed} of ${plural(tests.length, 'test')})`
    lines.push({ passed: tests.length > 0 && rate >= limit, text: `min-pass-rate ${formatPercent(limit)}: the suite ${figure}` })
  }
  if (gates.maxUsd !== undefined) {
    const usd = usdOf(tests)
    lines.push({ passed: !isOver(usd, gates.maxUsd), text: `max-usd ${formatUsd(gates.maxUsd)}: the suite cost ${formatUsd(usd)}` })
  }
  if (gates.maxTokens !== undefined) {
    const tokens = tokensOf(tests)
    lines.push({ passed: !isOver(tokens, gates.maxTokens), text: `max-tokens ${gates.maxTokens}: the suite used ${tokens} tokens` })
  }
  return lines
}

/** Per test: a line for each test over a gate, and one line for each gate every test kept. */
function testLines(tests: readonly TestResult[], gates: Gates): GateLine[] {
  const lines: GateLine[] = []
  const gate = (name: string, figureOf: (test: TestResult) => { passed: boolean; figure: string }): void => {
    const failed = tests.flatMap((test) => {
      const { passed, figure } = figureOf(test)
      return passed ? [] : [{ passed: false, text: `${name}: ${testLabel(test)} ${figure}` }]
    })
    lines.push(...(failed.length > 0 ? failed : [{ passed: true, text: `${name}: each of ${plural(tests.length, 'test')} kept it` }]))
  }
  if (gates.minPassRate !== undefined) {
    const limit = gates.minPassRate
    gate(`min-pass-rate ${formatPercent(limit)}`, (test) => {
      const { passed, of } = runsPassed(test)
      return { passed: passed / of >= limit, figure: `passed ${formatPercent(passed / of)} (${passed} of ${plural(of, 'run')})` }
    })
  }
  if (gates.maxUsd !== undefined) {
    const limit = gates.maxUsd
    gate(`max-usd ${formatUsd(limit)}`, (test) => {
      const usd = usdOf([test])
      return { passed: !isOver(usd, limit), figure: `cost ${formatUsd(usd)}` }
    })
  }
  if (gates.maxTokens !== undefined) {
    const limit = gates.maxTokens
    gate(`max-tokens ${limit}`, (test) => {
      const tokens = tokensOf([test])
      return { passed: !isOver(tokens, limit), figure: `used ${tokens} tokens` }
    })
  }
  return lines
}

/** The lines of the gates over `results`; one failed line fails the gate. */
export function checkGates(results: RunResults, gates: Gates): GateLine[] {
  const tests = results.tests.filter((test) => test.outcome !== 'skipped')
  return gates.per === 'suite' ? suiteLines(tests, gates) : testLines(tests, gates)
}
