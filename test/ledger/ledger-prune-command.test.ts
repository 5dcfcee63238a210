/**
 * `reagent-flow ledger prune`: against a store opened here (the trace
 * directory by default) or a server (--ledger / REAGENT_LEDGER_URL with an
 * admin token in REAGENT_LEDGER_TOKEN), and its usage errors.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { saveTrace } from '../../src/entries/files.js'
import { runCli, runCliAsync } from '../cli/run-cli.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { spawnServe } from './serve-process.js'

const DAY = 86_400
const BEFORE = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC'

/** Two runs of `refund` that session() wrote in `dir`: `old` (200 days ago) and `new` (yesterday); the path of old's file. */
function twoRuns(dir: string): string {
  const now = Date.now() / 1000
  const trace = (id: string, age: number) => buildTrace('refund', [], { trace_id: id, started_at: now - age * DAY, ended_at: now - age * DAY + 2 })
  saveTrace(trace('new', 1), { traceDir: join(dir, 'b') })
  return saveTrace(trace('old', 200), { traceDir: join(dir, 'a') })
}

describe('reagent-flow ledger prune', () => {
  it('prunes the trace directory when no ledger is named, counting only with --dry-run', () => {
    const cwd = tempDir()
    const old = twoRuns(join(cwd, '.reagent'))
    const dry = runCli(['ledger', 'prune', '--older-than', '90d', '--dry-run'], cwd)
    expect([dry.code, dry.stderr]).toEqual([0, ''])
    expect(dry.stdout).toMatch(
      new RegExp(
        `^would remove 1 run\\(s\\) started before ${BEFORE} from the directory store \\.reagent \\(org local, namespace default\\)\n` +
          "kept: 0 active, 0 newest of their agent, 0 of a branch's latest results, 0 failed\n$",
      ),
    )
    expect(existsSync(old)).toBe(true)
    const done = runCli(['ledger', 'prune', '--older-than', '12w', '--keep-last', '1', '--per', 'agent', '--json'], cwd)
    expect(JSON.parse(done.stdout)).toEqual({
      from: 'the directory store .reagent (org local, namespace default)',
      before: expect.stringMatching(/Z$/),
      dry_run: false,
      removed: 1,
      kept: { active: 0, last: 0, baseline: 0, failed: 0 },
      partitions_dropped: 0,
    })
    expect(existsSync(old)).toBe(false)
  })

  it('prunes through a server with an admin token, and says why another token is refused', async () => {
    const cwd = tempDir()
    const dir = join(cwd, 'ledger-dir')
    const old = twoRuns(dir)
    writeFileSync(
      join(cwd, 'tokens.json'),
      JSON.stringify({
        tokens: [
          { name: 'ci', token: 'ci-token-0123456789abcdef', org: 'acme', namespace: 'default' },
          { name: 'ops', token: 'ops-token-0123456789abcdef', org: 'acme', namespace: 'default', role: 'admin' },
        ],
      }),
    )
    const server = await spawnServe(['--store', dir, '--org', 'acme', '--token-file', 'tokens.json'], cwd)
    const as = (token: string) => ({ REAGENT_LEDGER_URL: server.url, REAGENT_LEDGER_TOKEN: token })
    expect(await runCliAsync(['ledger', 'prune', '--older-than', '90d'], cwd, as('ci-token-0123456789abcdef'))).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `reagent-flow ledger prune: run.prune: the ledger at ${server.url}/v1/run.prune answered 403 forbidden: ` +
        'run.prune: needs the role admin, and the token "ci" has the role write; use a token whose entry in the token file has "role": "admin"\n',
    })
    const done = await runCliAsync(['ledger', 'prune', '--older-than', '90d'], cwd, as('ops-token-0123456789abcdef'))
    expect([done.code, done.stderr]).toEqual([0, ''])
    expect(done.stdout).toMatch(new RegExp(`^removed 1 run\\(s\\) started before ${BEFORE} from the ledger at ${server.url}\n`))
    expect(existsSync(old)).toBe(false)
    // The served directory is the server's: opening it here is refused, naming the way through the server.
    expect(runCli(['ledger', 'prune', '--store', dir, '--older-than', '90d'], cwd).stderr).toMatch(
      /^reagent-flow ledger prune: another reagent-flow server \(pid \d+\) is serving .*ledger-dir: stop it, or run several servers/,
    )
  })

  it('names what is missing or malformed', () => {
    const cwd = tempDir()
    expect(runCli(['ledger', 'prune'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow ledger prune: ledger prune needs --older-than <age>: how old a run must be to be removed (36h, 90d, 12w)\n',
    })
    expect(runCli(['ledger', 'prune', '--older-than', '90'], cwd).stderr).toBe(
      'reagent-flow ledger prune: --older-than must be a count of hours, days or weeks (36h, 90d, 12w); got "90"\n',
    )
    expect(runCli(['ledger', 'prune', '--older-than', '90d', '--keep-last', '0'], cwd).stderr).toBe(
      'reagent-flow ledger prune: --keep-last must be a whole number from 1 to 1000000; got "0"\n',
    )
    expect(runCli(['ledger', 'prune', '--older-than', '90d', '--ledger', 'http://127.0.0.1:9', '--store', 'x'], cwd).stderr).toBe(
      'reagent-flow ledger prune: ledger prune takes --ledger <url> (a server) or --store <dir or postgres URL> (a store opened here), not both\n',
    )
  })
})
