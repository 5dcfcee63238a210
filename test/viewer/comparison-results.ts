/**
 * Results files of a baseline and a current build, as the reporter writes
 * them, for the Comparison page: each test a run set (repeat()) whose runs
 * passed or not with the tokens given. The seeded agent of test/compare
 * gives the outcomes of the bigger samples.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RunResults, TestResult } from '../../src/results/types.js'
import { seededRuns } from '../compare/seeded-agent.js'

export const FILE = 'test/agent.test.ts'

export interface RunOf {
  passed: boolean
  tokens: number
}

export type Suite = Readonly<Record<string, readonly RunOf[]>>

function testOf(name: string, runs: readonly RunOf[]): TestResult {
  const passed = runs.some((run) => run.passed)
  return {
    file: FILE,
    name,
    line: null,
    outcome: passed ? 'passed' : 'failed',
    duration_ms: 40,
    failure: passed ? null : 'expected the agent to call issue_refund',
    golden: 'none',
    runs: runs.map((run, at) => ({
      name: `${name} #${at + 1}`,
      status: run.passed ? 'completed' : 'failed',
      trace: null,
      tokens: run.tokens,
      usd: null,
      turns: 3,
      tool_calls: 2,
      duration_ms: null,
    })),
  }
}

/** `<dir>/<side>/results.json` holding `suite`, run on `commit`; returns the file. */
export function writeSide(dir: string, side: string, commit: string, suite: Suite): string {
  const results: RunResults = {
    results_version: 1,
    reagent_flow_version: '0.1.0',
    shard: null,
    started_at: 1_765_000_000,
    ended_at: 1_765_000_100,
    commit,
    branch: side,
    tests: Object.entries(suite).map(([name, runs]) => testOf(name, runs)),
  }
  mkdirSync(join(dir, side), { recursive: true })
  const file = join(dir, side, 'results.json')
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
  return file
}

export const REFUNDS = 'refund agent > refunds order 42'
export const ANSWERS = 'answers a question'

/** Runs of the seeded agent at `passRate`, each with `tokens` plus a spread of 0 to 190 tokens. */
export function seededSide(passRate: number, runs: number, seed: number, tokens: number): RunOf[] {
  return seededRuns(passRate, runs, seed).map((run, at) => ({ passed: run.passed, tokens: tokens + ((at * 7) % 20) * 10 }))
}

/**
 * main (20 runs of each test) against a branch whose refund agent passes 60% of 20 runs instead of 95%
 * and uses 400 more tokens a run; the other test is the same on both sides. The regressed test sorts
 * after the unchanged one by name, so "regressed first" is the page's doing.
 */
export function writeRegression(dir: string): { baseline: string; current: string } {
  return {
    baseline: writeSide(dir, 'main', 'aaa111', { [ANSWERS]: seededSide(1, 20, 7, 500), [REFUNDS]: seededSide(0.95, 20, 19, 1000) }),
    current: writeSide(dir, 'branch', 'bbb222', { [ANSWERS]: seededSide(1, 20, 8, 500), [REFUNDS]: seededSide(0.6, 20, 1019, 1400) }),
  }
}
