/**
 * Conformance: run.prune (our extension, decision 084). Runs that started
 * before the cut-off go with their traces, except active runs, each agent's
 * newest keep_last (at least 1), runs of a branch's latest results and, with
 * keep_failed, failed ones; dry_run counts without removing; the token's
 * project bounds it; only an admin token may call it.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { readTokenFile } from '../../../src/ledger/tokens.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { T0, type StartLedger, type TestLedger } from '../harness.js'
import { pricedTrace } from './get-grade.js'
import { resultsOf } from './results.js'

const DAY = 86_400
const NOW = T0 + 400 * DAY

interface Seed {
  id: string
  agent: string
  /** Days before NOW. */
  age: number
  status: 'active' | 'completed' | 'failed' | 'cancelled'
  grade?: 'pass' | 'fail'
  metadata?: Record<string, unknown>
}

async function seed(ledger: TestLedger, runs: readonly Seed[], token?: string): Promise<void> {
  const init = token === undefined ? {} : { token }
  for (const run of runs) {
    ledger.clock.seconds = NOW - run.age * DAY
    expect((await ledger.call('run.begin', { run_id: run.id, agent: run.agent, goal: 'g', metadata: run.metadata ?? {} }, init)).status).toBe(200)
    if (run.status !== 'active') expect((await ledger.call('run.complete', { run_id: run.id, status: run.status }, init)).status).toBe(200)
    if (run.grade !== undefined) expect((await ledger.call('run.grade', { run_id: run.id, grade: run.grade }, init)).status).toBe(200)
  }
  ledger.clock.seconds = NOW
}

async function idsOf(ledger: TestLedger, token?: string): Promise<string[]> {
  const reply = await ledger.call<{ runs: Array<{ run_id: string }> }>(
    'run.list',
    { order_by: 'started_asc', limit: 200 },
    token === undefined ? {} : { token },
  )
  expect(reply.status).toBe(200)
  return reply.body.runs.map((run) => run.run_id)
}

const none = { active: 0, last: 0, baseline: 0, failed: 0 }
const before = (days: number): string => new Date((NOW - days * DAY) * 1000).toISOString()

const ROLE_TOKENS = {
  ciAdmin: 'ci-admin-0123456789abcdef',
  ciWriter: 'ci-writer-0123456789abcdef',
  ciReader: 'ci-reader-0123456789abcdef',
  prodAdmin: 'prod-admin-0123456789abcdef',
}

let projects = 0

/** Tokens of two projects of an org of the test's own (tests may share a database): ci with an admin, a writer and a reader, prod with an admin. */
function roleTokens(): { org: string; tokens: ReturnType<typeof readTokenFile> } {
  const org = `prune${process.pid}x${++projects}`
  const file = join(tempDir(), 'tokens.json')
  writeFileSync(
    file,
    JSON.stringify({
      tokens: [
        { name: 'ci-admin', token: ROLE_TOKENS.ciAdmin, org, namespace: 'ci', role: 'admin' },
        { name: 'ci-writer', token: ROLE_TOKENS.ciWriter, org, namespace: 'ci' },
        { name: 'ci-reader', token: ROLE_TOKENS.ciReader, org, namespace: 'ci', role: 'read' },
        { name: 'prod-admin', token: ROLE_TOKENS.prodAdmin, org, namespace: 'prod', role: 'admin' },
      ],
    }),
  )
  return { org, tokens: readTokenFile(file) }
}

/** Months dropped: none on the directory store; on PostgreSQL it depends on the other tests' runs in the shared database (postgres-prune.test.ts counts them exactly). */
function droppedOn(ledger: TestLedger): number {
  return ledger.store.kind === 'postgres' ? (expect.any(Number) as number) : 0
}

export function pruneConformance(start: StartLedger): void {
  it('removes the runs older than older_than with their traces, but never an active run nor the newest run of an agent', async () => {
    const ledger = await start()
    await seed(ledger, [
      { id: 'a1', agent: 'refund', age: 200, status: 'completed' },
      { id: 'c1', agent: 'search', age: 200, status: 'active' },
      { id: 'a2', agent: 'refund', age: 150, status: 'cancelled' },
      { id: 'b1', agent: 'triage', age: 120, status: 'completed' },
      { id: 'a3', agent: 'refund', age: 100, status: 'completed', grade: 'pass' },
      { id: 'c2', agent: 'search', age: 95, status: 'completed' },
      { id: 'a4', agent: 'refund', age: 10, status: 'completed' },
    ])
    expect((await ledger.call('trace.put', { run_id: 'a1', trace: pricedTrace() }, { gzip: true })).status).toBe(200)
    expect(await ledger.call('run.prune', { older_than: '90d' })).toEqual({
      status: 200,
      body: { before: before(90), dry_run: false, removed: 3, kept: { ...none, active: 1, last: 2 }, partitions_dropped: droppedOn(ledger) },
    })
    expect(await idsOf(ledger)).toEqual(['c1', 'b1', 'c2', 'a4'])
    expect((await ledger.call('run.get', { run_id: 'a1' })).body).toMatchObject({ found: false })
    expect((await ledger.call('trace.get', { run_id: 'a1' })).status).toBe(404)
    // Pruned again, nothing more goes: what is left is kept by the same rules.
    expect((await ledger.call('run.prune', { older_than: '90d' })).body).toMatchObject({ removed: 0, kept: { ...none, active: 1, last: 2 } })
  })

  it('keeps the newest keep_last runs of each agent and, with keep_failed, the runs that failed or were graded fail', async () => {
    const ledger = await start()
    await seed(ledger, [
      { id: 'a1', agent: 'refund', age: 200, status: 'failed' },
      { id: 'a2', agent: 'refund', age: 190, status: 'completed', grade: 'fail' },
      { id: 'a3', agent: 'refund', age: 180, status: 'completed' },
      { id: 'a4', agent: 'refund', age: 170, status: 'cancelled' },
      { id: 'a5', agent: 'refund', age: 160, status: 'completed' },
      { id: 'a6', agent: 'refund', age: 5, status: 'completed' },
    ])
    expect((await ledger.call('run.prune', { older_than: '12w', keep_last: 2, dry_run: true })).body).toEqual({
      before: before(84),
      dry_run: true,
      removed: 4,
      kept: { ...none, last: 1 },
      partitions_dropped: droppedOn(ledger),
    })
    expect(await idsOf(ledger)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6'])
    expect((await ledger.call('run.prune', { older_than: '2160h', keep_last: 2, keep_failed: true })).body).toEqual({
      before: before(90),
      dry_run: false,
      removed: 2,
      kept: { ...none, last: 1, failed: 2 },
      partitions_dropped: droppedOn(ledger),
    })
    expect(await idsOf(ledger)).toEqual(['a1', 'a2', 'a5', 'a6'])
  })

  it("keeps the runs of the tests a branch's latest results ran, at their commit, and no run of older results", async () => {
    const ledger = await start()
    const test = { test_file: 'test/agent.test.ts', test_name: 'refunds order 42' }
    for (const [branch, at] of [
      ['main', 0],
      ['main', 1],
      ['feature', 5],
    ] as const) {
      expect((await ledger.call('results.put', { results: resultsOf(branch, at) })).status).toBe(200)
    }
    await seed(ledger, [
      { id: 'old-commit', agent: 'refund', age: 110, status: 'completed', metadata: { ...test, git_commit: 'c0' } },
      { id: 'main-latest', agent: 'refund', age: 100, status: 'completed', metadata: { ...test, git_commit: 'c1' } },
      { id: 'feature-latest', agent: 'refund', age: 105, status: 'failed', metadata: { ...test, git_commit: 'c5' } },
      { id: 'other-test', agent: 'refund', age: 100, status: 'completed', metadata: { ...test, test_name: 'refunds order 43', git_commit: 'c1' } },
      { id: 'newest', agent: 'refund', age: 1, status: 'completed' },
    ])
    expect((await ledger.call('run.prune', { older_than: '90d', keep_failed: true })).body).toMatchObject({
      removed: 2,
      kept: { ...none, baseline: 2 },
    })
    expect(await idsOf(ledger)).toEqual(['feature-latest', 'main-latest', 'newest'])
  })

  it("prunes only the token's project, and only for an admin token (403 naming the operation, the token and its role)", async () => {
    const { org, tokens } = roleTokens()
    const ledger = await start({ tokens, org })
    const old: Seed[] = [
      { id: 'x1', agent: 'refund', age: 200, status: 'completed' },
      { id: 'x2', agent: 'refund', age: 1, status: 'completed' },
    ]
    await seed(ledger, old, ROLE_TOKENS.ciWriter)
    await seed(ledger, old, ROLE_TOKENS.prodAdmin)
    for (const [token, name, role] of [
      [ROLE_TOKENS.ciWriter, 'ci-writer', 'write'],
      [ROLE_TOKENS.ciReader, 'ci-reader', 'read'],
    ] as const) {
      expect(await ledger.call('run.prune', { older_than: '90d' }, { token })).toEqual({
        status: 403,
        body: {
          error: 'forbidden',
          message: `run.prune: needs the role admin, and the token "${name}" has the role ${role}; use a token whose entry in the token file has "role": "admin"`,
        },
      })
    }
    expect(await ledger.call('run.prune', { older_than: '90d', namespace: 'prod' }, { token: ROLE_TOKENS.ciAdmin })).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        message: 'run.prune: namespace "prod" is outside this token\'s scope (ci-admin may use namespace "ci" only)',
        field: 'namespace',
      },
    })
    expect((await ledger.call('run.prune', { older_than: '90d' }, { token: ROLE_TOKENS.ciAdmin })).body).toMatchObject({ removed: 1 })
    expect(await idsOf(ledger, ROLE_TOKENS.ciReader)).toEqual(['x2'])
    expect(await idsOf(ledger, ROLE_TOKENS.prodAdmin)).toEqual(['x1', 'x2'])
  })

  it('refuses a prune without older_than, or with a keep_last under 1 (422), removing nothing', async () => {
    const ledger = await start()
    await seed(ledger, [
      { id: 'a1', agent: 'refund', age: 200, status: 'completed' },
      { id: 'a2', agent: 'refund', age: 1, status: 'completed' },
    ])
    expect(await ledger.call('run.prune', {})).toEqual({
      status: 422,
      body: { error: 'invalid_input', message: 'run.prune: older_than is required (rule: required)', field: 'older_than', rule: 'required' },
    })
    expect((await ledger.call('run.prune', { older_than: '90 days' })).body).toMatchObject({ error: 'invalid_input', field: 'older_than', rule: 'pattern' })
    expect((await ledger.call('run.prune', { older_than: '90d', keep_last: 0 })).body).toMatchObject({
      error: 'invalid_input',
      field: 'keep_last',
      rule: 'minimum',
    })
    expect(await idsOf(ledger)).toEqual(['a1', 'a2'])
  })
}
