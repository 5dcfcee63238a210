/**
 * `--baseline ledger:<branch>@<N>` and `reagent-flow ci upload` against a
 * real ledger (`reagent-flow serve`, a child process) through the real
 * client: main's last N results are a baseline a query away. The results are
 * built so that the baseline's pass rate says which files were read: main's
 * oldest run failed the refund test, its two newest passed it, and another
 * branch's run passed it too.
 */
import { createServer } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLedgerClient } from '../../src/ledger/client.js'
import { resultsOf } from '../ledger/conformance/results.js'
import { spawnServe } from '../ledger/serve-process.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCliAsync } from './run-cli.js'

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('--baseline ledger:<branch>@<N>', () => {
  it("compares with main's last N results the ledger keeps, leaving older runs and other branches out", async () => {
    const cwd = tempDir()
    const server = await spawnServe([], cwd)
    const client = createLedgerClient(server.url)
    for (const results of [resultsOf('main', 1, false), resultsOf('main', 2), resultsOf('main', 3), resultsOf('feature/refunds', 4)]) {
      expect((await client.putResults(results)).stored).toBe(true)
    }
    writeFileSync(join(cwd, 'current.json'), JSON.stringify(resultsOf('feature/refunds', 5, false)))
    const env = { REAGENT_LEDGER_URL: server.url }
    const { code, stdout, stderr } = await runCliAsync(['compare', 'ledger:main@2', 'current.json'], cwd, env)
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      '1 test compared: baseline ledger:main@2 (2 results files), current current.json (1 results file), at 95% confidence (Benjamini–Hochberg)\n' +
        '0 regressed, 0 improved, 1 unchanged\n' +
        '\n' +
        '· unchanged  test/agent.test.ts > refunds order 42  (1 current run)\n' +
        '    pass rate: 2/2 (100%) -> 0/1 (0%), p 0.3333 (adjusted 0.3333): unchanged (too few runs: needs 4 per side)\n' +
        '    tokens: median 1200 -> 1200 (2 and 1 runs), p 1 (adjusted 1): unchanged (too few runs: needs 4 per side)\n' +
        '    dollars: median $0.01 -> $0.01 (2 and 1 runs), p 1 (adjusted 1): unchanged (too few runs: needs 4 per side)\n' +
        '    duration: median 35 ms -> 35 ms (2 and 1 runs), p 1 (adjusted 1): unchanged (too few runs: needs 4 per side)\n' +
        '    turns: median 3 -> 3 (2 and 1 runs), p 1 (adjusted 1): unchanged (too few runs: needs 4 per side)\n' +
        '    tool calls: median 2 -> 2 (2 and 1 runs), p 1 (adjusted 1): unchanged (too few runs: needs 4 per side)\n',
    )
  })

  it('keeps results files with ci upload (once), and names the ledger and the branch when it holds none of it (exit 2)', async () => {
    const cwd = tempDir()
    const server = await spawnServe([], cwd)
    writeFileSync(join(cwd, 'results.json'), JSON.stringify(resultsOf('main', 2)))
    const upload = await runCliAsync(['ci', 'upload', 'results.json', '--ledger', server.url], cwd)
    expect(upload).toEqual({ code: 0, stdout: `kept results.json in the ledger at ${server.url} (branch main, commit c2)\n`, stderr: '' })
    const again = await runCliAsync(['ci', 'upload', 'results.json'], cwd, { REAGENT_LEDGER_URL: server.url })
    expect(again).toEqual({ code: 0, stdout: `results.json was already in the ledger at ${server.url} (branch main, commit c2)\n`, stderr: '' })
    expect((await createLedgerClient(server.url).listResults({ branch: 'main' })).results).toEqual([resultsOf('main', 2)])
    const empty = await runCliAsync(['ci', 'gate', 'results.json', '--no-regressions', '--baseline', 'ledger:release@5'], cwd, {
      REAGENT_LEDGER_URL: server.url,
    })
    expect(empty).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow ci gate: ledger:release@5 holds no results: the ledger at ${server.url} has none of branch "release". Upload the results of that branch’s builds with reagent-flow ci upload <results>.\n`,
    })
  })

  it('says which ledger and branch it could not reach, in one line, exit 2', async () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'current.json'), JSON.stringify(resultsOf('main', 5)))
    const url = `http://127.0.0.1:${await closedPort()}`
    expect(await runCliAsync(['compare', 'ledger:main@2', 'current.json'], cwd, { REAGENT_LEDGER_URL: url })).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow compare: ledger:main@2 could not be read: no answer from the ledger at ${url} for branch "main" (ECONNREFUSED). Start the ledger (reagent-flow serve), or set REAGENT_LEDGER_URL to where it runs.\n`,
    })
    expect(await runCliAsync(['compare', 'ledger:main@0', 'current.json'], cwd, { REAGENT_LEDGER_URL: url })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow compare: ledger:main@0 is not a ledger baseline: give ledger:<branch> or ledger:<branch>@<N>, N from 1 to 200. For main’s last 20 runs: --baseline ledger:main@20.\n',
    })
    expect((await runCliAsync(['ci', 'upload', 'current.json'], cwd, { REAGENT_LEDGER_URL: '' })).stderr).toBe(
      'reagent-flow ci upload: ci upload needs a ledger: pass --ledger <url>, or set REAGENT_LEDGER_URL\n',
    )
  })
})
