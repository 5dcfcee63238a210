/**
 * `reagent-flow stats` (the built command, a child process) against a ledger
 * served in this process, whose clock the test sets: the conformance suite's
 * seven runs, as a table, as JSON, and the usage errors.
 */
import { describe, expect, it } from 'vitest'
import { startDirectoryLedger } from '../ledger/harness.js'
import { sevenRuns } from '../ledger/conformance/stats.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCliAsync } from './run-cli.js'

describe('reagent-flow stats', () => {
  it('prints runs, pass rate, tokens, cost, duration p50/p95 and turns per agent and day', async () => {
    const ledger = await startDirectoryLedger()
    await sevenRuns(ledger)
    const { code, stdout, stderr } = await runCliAsync(['stats', '--ledger', ledger.url], tempDir())
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      `runs per agent and day since 2026-12-17 08:01 UTC, in the ledger at ${ledger.url}\n` +
        'GROUP         FROM        RUNS         PASS  TOKENS     COST    P50    P95  TURNS\n' +
        'refund-agent  2027-01-15     4  33.3% (1/3)    2220  $0.0080   2.0s   3.0s      4\n' +
        'refund-agent  2027-01-16     1   100% (1/1)       0    $0.00  500ms  500ms      0\n' +
        'search-agent  2027-01-15     1     0% (0/1)       0    $0.00   4.0s   4.0s      0\n',
    )
  })

  it('groups by branch and week with --json, and runs without a branch are the group ""', async () => {
    const ledger = await startDirectoryLedger()
    await sevenRuns(ledger)
    const { code, stdout } = await runCliAsync(['stats', '--by', 'branch', '--bucket', 'week', '--json'], tempDir(), { REAGENT_LEDGER_URL: ledger.url })
    expect(code).toBe(0)
    const out = JSON.parse(stdout) as { ledger: string; by: string; bucket: string; rows: Array<Record<string, unknown>> }
    expect([out.ledger, out.by, out.bucket]).toEqual([ledger.url, 'branch', 'week'])
    expect(out.rows.map((row) => [row.key, row.bucket_start, row.runs, row.passed, row.closed])).toEqual([
      ['', '2027-01-11T00:00:00.000Z', 4, 0, 3],
      ['main', '2027-01-11T00:00:00.000Z', 2, 2, 2],
    ])
  })

  it('refuses a bad --since, --by or --bucket and a missing ledger with exit code 2 and the reason', async () => {
    const cwd = tempDir()
    const env = { REAGENT_LEDGER_URL: '' }
    expect(await runCliAsync(['stats', '--ledger', 'http://127.0.0.1:9', '--since', '30days'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow stats: --since must be a count of hours, days or weeks (12h, 30d, 8w); got "30days"\n',
    })
    expect(await runCliAsync(['stats', '--ledger', 'http://127.0.0.1:9', '--bucket', 'month'], cwd)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--bucket must be one of hour, day, week; got "month"'),
    })
    expect(await runCliAsync(['stats', '--by', 'model'], cwd, env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--by must be one of agent, test, branch, commit; got "model"'),
    })
    expect(await runCliAsync(['stats'], cwd, env)).toMatchObject({
      code: 2,
      stderr: 'reagent-flow stats: stats needs a ledger: pass --ledger <url>, or set REAGENT_LEDGER_URL\n',
    })
  })
})
