/**
 * A session inside a vitest test tells the ledger where its run came from
 * (test file, full test name, git commit and branch) in the run's metadata,
 * and both stores give them back in run.get and run.list.
 */
import { execFileSync } from 'node:child_process'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import '../../src/entries/vitest.js'
import { session } from '../../src/entries/index.js'
import { settleHandedOff } from '../../src/session/handed-off.js'
import { tempDir } from '../helpers/temp-dir.js'
import { POSTGRES_URL, postgresLedgers, startDirectoryLedger, type StartLedger } from './harness.js'

/** Every CI variable the reporter reads, empty: the machine running this suite may be a CI machine. */
const NO_CI = [
  'GITHUB_SHA',
  'GITHUB_HEAD_REF',
  'GITHUB_REF_NAME',
  'CI_COMMIT_SHA',
  'CI_COMMIT_REF_NAME',
  'BUILDKITE_COMMIT',
  'BUILDKITE_BRANCH',
  'CIRCLE_SHA1',
  'CIRCLE_BRANCH',
  'GIT_COMMIT',
  'GIT_BRANCH',
]

function outsideCi(): void {
  for (const name of NO_CI) vi.stubEnv(name, '')
}

afterEach(() => vi.unstubAllEnvs())

const postgres = postgresLedgers()
afterAll(postgres.drop)

const STORES: Array<{ store: string; start: StartLedger; skip: boolean }> = [
  { store: 'directory', start: startDirectoryLedger, skip: false },
  { store: 'PostgreSQL', start: postgres.start, skip: POSTGRES_URL === undefined },
]

type RunReply = { run: { metadata: Record<string, unknown> } }
type ListReply = { runs: Array<{ run_id: string; metadata: Record<string, unknown> }> }

for (const { store, start, skip } of STORES) {
  describe(`the ${store} store`, () => {
    it.skipIf(skip)("keeps the run's test file, full test name and the CI's commit and branch, and run.get and run.list return them", async () => {
      const ledger = await start()
      outsideCi()
      vi.stubEnv('GITHUB_SHA', '4b825dc642cb6eb9a060e54bf8d69288fbee4904')
      vi.stubEnv('GITHUB_REF_NAME', '812/merge')
      vi.stubEnv('GITHUB_HEAD_REF', 'fix/refund-rounding')
      const s = await session('refund-agent', { traceDir: tempDir(), ledger: ledger.url, metadata: { goal: 'Refund order 42' } }, () => 'ok')
      await settleHandedOff(10_000)

      const origin = {
        goal: 'Refund order 42',
        test_file: 'test/ledger/run-origin.test.ts',
        test_name: expect.getState().currentTestName, // `the directory store > keeps ...`
        git_commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
        git_branch: 'fix/refund-rounding',
      }
      expect((await ledger.call<RunReply>('run.get', { run_id: s.traceId })).body.run.metadata).toEqual(origin)
      const listed = await ledger.call<ListReply>('run.list', { fields: ['run_id', 'metadata'] })
      expect(listed.body.runs).toEqual([{ run_id: s.traceId, metadata: origin }])
    })
  })
}

describe('the directory store, of the runs session() writes into it', () => {
  it('gives their test file and full test name in their metadata, as a session reporting to a ledger sends them', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir })
    const s = await session('local-agent', { traceDir: dir, metadata: { goal: 'Refund order 42' } }, () => 'ok')
    await vi.waitFor(async () => expect((await ledger.call<ListReply>('run.list', {})).body.runs).toHaveLength(1))
    expect((await ledger.call<RunReply>('run.get', { run_id: s.traceId })).body.run.metadata).toEqual({
      goal: 'Refund order 42',
      test_file: 'test/ledger/run-origin.test.ts',
      test_name: expect.getState().currentTestName,
    })
  })
})

describe('where the commit and branch come from', () => {
  it('outside CI, from git in the vitest root: the commit and branch checked out there', async () => {
    const ledger = await startDirectoryLedger()
    outsideCi()
    const s = await session('local-agent', { traceDir: tempDir(), ledger: ledger.url }, () => 'ok')
    await settleHandedOff(10_000)

    const [commit, branch] = execFileSync('git', ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim().split('\n')
    const { metadata } = (await ledger.call<RunReply>('run.get', { run_id: s.traceId })).body.run
    expect(metadata.git_commit).toBe(commit)
    expect(metadata.git_branch).toBe(branch === 'HEAD' ? undefined : branch)
  })

  it.each([
    ['GitLab', { CI_COMMIT_SHA: 'a'.repeat(40), CI_COMMIT_REF_NAME: 'main' }],
    ['Buildkite', { BUILDKITE_COMMIT: 'a'.repeat(40), BUILDKITE_BRANCH: 'main' }],
    ['CircleCI', { CIRCLE_SHA1: 'a'.repeat(40), CIRCLE_BRANCH: 'main' }],
    ['Jenkins', { GIT_COMMIT: 'a'.repeat(40), GIT_BRANCH: 'main' }],
    ['GitHub on a push', { GITHUB_SHA: 'a'.repeat(40), GITHUB_REF_NAME: 'main' }],
  ])('on %s, from its variables', async (_ci, variables) => {
    const ledger = await startDirectoryLedger()
    outsideCi()
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value)
    const s = await session('ci-agent', { traceDir: tempDir(), ledger: ledger.url }, () => 'ok')
    await settleHandedOff(10_000)
    expect((await ledger.call<RunReply>('run.get', { run_id: s.traceId })).body.run.metadata).toMatchObject({ git_commit: 'a'.repeat(40), git_branch: 'main' })
  })

  it("lets the session's own metadata win: a key its author set is theirs", async () => {
    const ledger = await startDirectoryLedger()
    outsideCi()
    vi.stubEnv('CI_COMMIT_SHA', 'a'.repeat(40))
    vi.stubEnv('CI_COMMIT_REF_NAME', 'main')
    const s = await session('agent', { traceDir: tempDir(), ledger: ledger.url, metadata: { git_branch: 'release/2.1', test_name: 'nightly' } }, () => 'ok')
    await settleHandedOff(10_000)
    expect((await ledger.call<RunReply>('run.get', { run_id: s.traceId })).body.run.metadata).toEqual({
      git_commit: 'a'.repeat(40),
      git_branch: 'release/2.1',
      test_file: 'test/ledger/run-origin.test.ts',
      test_name: 'nightly',
    })
  })
})
