/**
 * The run results file as a user gets it: vitest run as a child process over
 * a sample suite (fixtures/vitest-results) with reagent-flow/vitest/reporter,
 * plain and sharded; then `reagent-flow ci merge` and `ci gate` (the built
 * CLI) over the files it wrote.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { PACKAGE_VERSION } from '../../src/base/package-version.js'
import { parseResults } from '../../src/results/results-file.js'
import type { RunResults } from '../../src/results/types.js'
import { runCli } from '../cli/run-cli.js'
import { copySampleProject, runVitest } from '../helpers/vitest-project.js'

const COMMIT = '0123456789abcdef0123456789abcdef01234567'
const ENV = { REAGENT_UPDATE: 'new', GITHUB_SHA: COMMIT, GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' }

function sample(): string {
  const project = copySampleProject('vitest-results')
  onTestFinished(() => project.remove())
  return project.dir
}

function readResults(path: string): RunResults {
  return parseResults(path, readFileSync(path, 'utf8'))
}

/** The results with what changes from run to run (times, durations) made 0. */
function steady(results: RunResults): RunResults {
  return {
    ...results,
    started_at: 0,
    ended_at: 0,
    tests: results.tests.map((test) => ({
      ...test,
      duration_ms: test.duration_ms === null ? null : 0,
      runs: test.runs.map((run) => ({ ...run, duration_ms: run.duration_ms === null ? null : 0 })),
    })),
  }
}

const run = (name: string, trace: string, tokens: number, turns: number) => ({
  name,
  status: 'completed',
  trace: `.reagent/test/${trace}.trace.json`,
  tokens,
  usd: (tokens / 140) * 0.00003,
  turns,
  tool_calls: turns - 1,
  duration_ms: 0,
})

const TESTS = [
  {
    file: 'test/goal.test.ts',
    name: 'reaches its goal',
    line: 5,
    outcome: 'passed',
    duration_ms: 0,
    failure: null,
    golden: 'none',
    runs: [
      {
        name: 'reaches its goal',
        status: 'completed',
        trace: '.reagent/test/goal.test.ts/reaches_its_goal.trace.json',
        tokens: 1570,
        usd: 0.00272,
        by_role: { agent: { tokens: 560, usd: 0.00012 }, judge: { tokens: 1010, usd: 0.0026 } },
        turns: 4,
        tool_calls: 3,
        duration_ms: 0,
      },
    ],
  },
  {
    file: 'test/refund.test.ts',
    name: 'refund agent > refunds order 42',
    line: 7,
    outcome: 'passed',
    duration_ms: 0,
    failure: null,
    golden: 'written',
    runs: [run('refund agent > refunds order 42', 'refund.test.ts/refund_agent___refunds_order_42', 560, 4)],
  },
  {
    file: 'test/refund.test.ts',
    name: 'refund agent > checks the policy first',
    line: 12,
    outcome: 'failed',
    duration_ms: 0,
    failure:
      'Flow mismatch: expected "check_policy" at position 1, got "issue_refund". Pattern: ["lookup_order", "check_policy", "issue_refund"], actual: ["lookup_order", "issue_refund"]',
    golden: 'none',
    runs: [run('refund agent > checks the policy first', 'refund.test.ts/refund_agent___checks_the_policy_first', 420, 3)],
  },
  {
    file: 'test/refund.test.ts',
    name: 'refund agent > refunds in euros',
    line: 17,
    outcome: 'skipped',
    duration_ms: null,
    failure: null,
    golden: 'none',
    runs: [],
  },
  {
    file: 'test/refund.test.ts',
    name: 'refund agent > hands billing to a sub-agent',
    line: 21,
    outcome: 'passed',
    duration_ms: 0,
    failure: null,
    golden: 'none',
    // The billing sub-agent's session is part of its parent's run.
    runs: [{ ...run('refund with billing', 'refund.test.ts/refund_agent___hands_billing_to_a_sub-agent___refund_with_billing', 1120, 8), tool_calls: 6 }],
  },
  {
    file: 'test/repeat.test.ts',
    name: 'refunds reliably',
    line: 6,
    outcome: 'passed',
    duration_ms: 0,
    failure: null,
    golden: 'none',
    runs: [
      run('refund #1', 'repeat.test.ts/refunds_reliably___refund__1', 560, 4),
      run('refund #2', 'repeat.test.ts/refunds_reliably___refund__2', 420, 3),
      run('refund #3', 'repeat.test.ts/refunds_reliably___refund__3', 560, 4),
    ],
  },
]

describe('the run results file', () => {
  it('a vitest run with passing, failing, skipped, repeated and judged agent tests writes every test with its runs, valid by the schema', async () => {
    const dir = sample()
    const { exitCode } = await runVitest(dir, { env: ENV })
    expect(exitCode).toBe(1)
    const results = readResults(join(dir, '.reagent', 'results', 'results.json'))
    expect(results.ended_at).toBeGreaterThanOrEqual(results.started_at)
    expect(steady(results)).toEqual({
      results_version: 1,
      reagent_flow_version: PACKAGE_VERSION,
      shard: null,
      started_at: 0,
      ended_at: 0,
      commit: COMMIT,
      branch: 'main',
      tests: TESTS.map((test) => ({ ...test, runs: test.runs.map((r) => ({ ...r, usd: expect.closeTo(r.usd, 12) })) })),
    })
  })

  it('each shard of vitest --shard 1/2 and 2/2 writes its own file, named after its shard', async () => {
    const dir = sample()
    const one = await runVitest(dir, { args: ['--shard', '1/2'], env: ENV })
    const two = await runVitest(dir, { args: ['--shard', '2/2'], env: ENV })
    // The shard with the failing test fails, the other passes.
    expect([one.exitCode, two.exitCode].sort()).toEqual([0, 1])
    const first = readResults(join(dir, '.reagent', 'results', 'results.shard-1-of-2.json'))
    const second = readResults(join(dir, '.reagent', 'results', 'results.shard-2-of-2.json'))
    expect([first.shard, second.shard]).toEqual([
      { index: 1, count: 2 },
      { index: 2, count: 2 },
    ])
    expect([...first.tests, ...second.tests].map((test) => test.name).sort()).toEqual(TESTS.map((test) => test.name).sort())
  })

  it('the results option writes the file elsewhere, with the shard before the extension; false writes none', async () => {
    const dir = sample()
    const config = (results: string): void =>
      writeFileSync(
        join(dir, 'vitest.config.ts'),
        `import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { setupFiles: ['reagent-flow/vitest'], reporters: [['reagent-flow/vitest/reporter', { results: ${results} }]] } })\n`,
      )
    config("'artifacts/agents.json'")
    await runVitest(dir, { args: ['--shard', '1/2'], env: ENV })
    const shard = readResults(join(dir, 'artifacts', 'agents.shard-1-of-2.json'))
    expect(shard.shard).toEqual({ index: 1, count: 2 })
    // Without vitest's includeTaskLocation, vitest knows no test's line.
    expect(new Set(shard.tests.map((test) => test.line))).toEqual(new Set([null]))
    config('false')
    await runVitest(dir, { env: ENV })
    expect(() => readFileSync(join(dir, '.reagent', 'results', 'results.json'))).toThrow(/ENOENT/)
  })
})

describe('ci merge and ci gate', () => {
  it('three shards merged are the tests of the unsharded run; a shard twice, another commit or a truncated file is refused', async () => {
    const whole = sample()
    const sharded = sample()
    await runVitest(whole, { env: ENV })
    for (const shard of ['1/3', '2/3', '3/3']) await runVitest(sharded, { args: ['--shard', shard], env: ENV })
    const shards = [1, 2, 3].map((i) => `.reagent/results/results.shard-${i}-of-3.json`)

    const merged = runCli(['ci', 'merge', ...shards, '--out', 'merged.json'], sharded)
    expect(merged).toEqual({ code: 0, stdout: 'merged 3 of 3 shards (6 tests) into merged.json\n', stderr: '' })
    const mergedResults = readResults(join(sharded, 'merged.json'))
    expect(steady(mergedResults).tests).toEqual(steady(readResults(join(whole, '.reagent', 'results', 'results.json'))).tests)
    expect(mergedResults.merged_shards).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })))
    expect(mergedResults.shard).toBeNull()

    expect(runCli(['ci', 'merge', shards[0]!, shards[1]!, shards[0]!], sharded)).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow ci merge: ${shards[0]} is shard 1/3 again (so is ${shards[0]}). Pass each shard's results once.\n`,
    })

    const other = readResults(join(sharded, shards[2]!))
    writeFileSync(join(sharded, 'other.json'), JSON.stringify({ ...other, commit: 'fedcba9876543210fedcba9876543210fedcba98' }))
    expect(runCli(['ci', 'merge', shards[0]!, 'other.json'], sharded)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `reagent-flow ci merge: other.json was recorded at commit fedcba9876543210fedcba9876543210fedcba98, but ${shards[0]} at commit ${COMMIT}. ` +
        "Merge the shards of one commit: the results of this build's jobs only.\n",
    })

    const text = readFileSync(join(sharded, shards[1]!), 'utf8')
    writeFileSync(join(sharded, 'cut.json'), text.slice(0, text.length / 2))
    const cut = runCli(['ci', 'merge', shards[0]!, 'cut.json'], sharded)
    expect(cut.code).toBe(2)
    expect(cut.stderr).toMatch(
      /^reagent-flow ci merge: cut\.json is not a complete JSON file \(.+\): it was cut short or is not a results file\. Pass the file reagent-flow\/vitest\/reporter wrote \(its results option\), or run the tests again to write it\.\n$/,
    )

    writeFileSync(join(sharded, 'v2.json'), JSON.stringify({ ...other, results_version: 2 }))
    expect(runCli(['ci', 'merge', 'v2.json'], sharded).stderr).toBe(
      'reagent-flow ci merge: v2.json has results_version 2; this reagent-flow reads results_version 1. Read it with the reagent-flow version that wrote it, or run the tests again with this one.\n',
    )
    // The HTML report of the merged runs: the traces of every shard, gathered in one trace directory.
    expect(runCli(['ci', 'merge', ...shards, '--out', 'merged.json', '--report', 'agents.html'], sharded)).toEqual({
      code: 0,
      stdout: 'merged 3 of 3 shards (6 tests) into merged.json\nreagent-flow report: agents.html · 9 runs, 1 golden\n',
      stderr: '',
    })
    const html = readFileSync(join(sharded, 'agents.html'), 'utf8')
    for (const name of ['refund #3', 'refund with billing', 'billing']) expect(html).toContain(`"name":${JSON.stringify(name)}`)
    rmSync(join(sharded, '.reagent', 'test', 'repeat.test.ts'), { recursive: true })
    expect(runCli(['ci', 'merge', ...shards, '--out', 'merged.json', '--report', 'agents.html'], sharded).stderr).toBe(
      "reagent-flow ci merge: 3 traces the results name are not in .reagent (.reagent/test/repeat.test.ts/refunds_reliably___refund__1.trace.json, ...): gather every shard's trace directory there before merging, and run from the vitest root\n",
    )

    const missing = runCli(['ci', 'merge', shards[0]!, shards[2]!, '--out', 'partial.json'], sharded)
    expect(missing).toEqual({
      code: 0,
      stdout: `merged 2 of 3 shards (${readResults(join(sharded, shards[0]!)).tests.length + other.tests.length} tests) into partial.json\n`,
      stderr: 'reagent-flow ci merge: shard 2/3 not given: its tests are not in partial.json\n',
    })
  })

  it('ci gate exits 0 when every gate is kept, 1 with a line per failed gate, 2 on bad usage', async () => {
    const dir = sample()
    await runVitest(dir, { env: ENV })
    const file = '.reagent/results/results.json'
    expect(runCli(['ci', 'gate', file, '--min-pass-rate', '0.8', '--max-usd', '0.01', '--max-tokens', '6000'], dir)).toEqual({
      code: 0,
      stdout: [
        '✓ min-pass-rate 80%: the suite passed 80% (4 of 5 tests)',
        '✓ max-usd $0.01: the suite cost $0.0035',
        '✓ max-tokens 6000: the suite used 5210 tokens',
        '',
      ].join('\n'),
      stderr: '',
    })
    expect(runCli(['ci', 'gate', file, '--min-pass-rate', '90%', '--max-tokens', '1000', '--per', 'test'], dir)).toEqual({
      code: 1,
      stdout: [
        '✗ min-pass-rate 90%: test/refund.test.ts:12 "refund agent > checks the policy first" passed 0% (0 of 1 run)',
        '✗ max-tokens 1000: test/goal.test.ts:5 "reaches its goal" used 1570 tokens',
        '✗ max-tokens 1000: test/refund.test.ts:21 "refund agent > hands billing to a sub-agent" used 1120 tokens',
        '✗ max-tokens 1000: test/repeat.test.ts:6 "refunds reliably" used 1540 tokens',
        '',
      ].join('\n'),
      stderr: '',
    })
    expect(runCli(['ci', 'gate', file, '--max-usd', '0.001'], dir)).toMatchObject({ code: 1, stdout: '✗ max-usd $0.0010: the suite cost $0.0035\n' })
    expect(runCli(['ci', 'gate', file, '--max-usd', '0.01', '--per', 'test', '--json'], dir)).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ passed: true, lines: [{ passed: true, text: 'max-usd $0.01: each of 5 tests kept it' }] }, null, 2)}\n`,
      stderr: '',
    })
    expect(runCli(['ci', 'gate', file], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow ci gate: no gate given: pass --min-pass-rate, --max-usd, --max-tokens or --no-regressions (or several)\n',
    })
    expect(runCli(['ci', 'gate', file, '--min-pass-rate', '1.5'], dir).stderr).toBe(
      'reagent-flow ci gate: --min-pass-rate must be a share from 0 to 1 (0.9) or a percentage (90%); got "1.5"\n',
    )
    expect(runCli(['ci', 'gate', 'nowhere.json', '--max-usd', '1'], dir)).toMatchObject({ code: 2 })
  })
})
