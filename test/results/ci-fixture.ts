/** Fixed results for the CI outputs' tests (Markdown, JUnit, annotations, the comment): hostile names, a run set, a judge, no trace content. */
import type { RunResult, RunResults, TestResult } from '../../src/results/types.js'

export function runOf(name: string, tokens: number | null, usd: number | null, turns = 2, status: RunResult['status'] = 'completed'): RunResult {
  return { name, status, trace: `.reagent/test/${name}.trace.json`, tokens, usd, turns, tool_calls: turns - 1, duration_ms: 10 }
}

export function testOf(name: string, outcome: TestResult['outcome'], runs: RunResult[], more: Partial<TestResult> = {}): TestResult {
  return { file: 'test/agent.test.ts', name, line: null, outcome, duration_ms: 12.5, failure: null, golden: 'none', runs, ...more }
}

export const HOSTILE_RESULTS: RunResults = {
  results_version: 1,
  reagent_flow_version: '0.1.0',
  shard: null,
  started_at: 1_800_000_000,
  ended_at: 1_800_000_002.5,
  commit: '0123456789abcdef0123456789abcdef01234567',
  branch: 'feature/refunds',
  tests: [
    testOf('refunds | pipes & <script>alert(1)</script>', 'passed', [runOf('a', 560, 0.00012)], { line: 7, golden: 'matched' }),
    testOf('no agent here', 'passed', []),
    testOf('multi\nline *name*', 'failed', [runOf('b', 420, 0.00009, 3)], {
      file: 'test/odd,file:name.test.ts',
      line: 12,
      failure: 'expected "sk-live-1234567890abcdef" to be called: 100% of $0.01, a\r\nb',
    }),
    testOf('refunds reliably', 'passed', [runOf('r #1', 100, null), runOf('r #2', 100, null, 2, 'failed'), runOf('r #3', null, null)], { golden: 'written' }),
    testOf('later', 'skipped', []),
    testOf('broke before a run', 'failed', [], { failure: 'boom' }),
  ],
}
