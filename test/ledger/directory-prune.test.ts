/**
 * The directory store's prune: the traces session() wrote are runs like the
 * ledger's own and go the same way, a run held by two files loses both, and
 * the index and the files never disagree: not when the disk refuses midway,
 * not after a crash at any point of a prune (its journal is finished at the
 * next open, also after a SIGKILL of `reagent-flow ledger prune`), and a file
 * session() has since written a new run into stays.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { saveTrace } from '../../src/entries/files.js'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { pruneJournalPath, renderPruneJournal } from '../../src/ledger/directory/prune-journal.js'
import { ledgerFileOf, ledgerFolder, ledgerPath } from '../../src/ledger/directory/run-files.js'
import { blankRun } from '../../src/ledger/run-fields.js'
import { renderTrace } from '../../src/storage/index.js'
import { CLI } from '../cli/run-cli.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger, T0, type TestLedger } from './harness.js'

const DAY = 86_400
const scope = { org: 'acme', namespace: 'default' }

/** A trace session() wrote under `folder` of `dir`: agent `refund`, started `age` days before T0. */
function sessionTrace(dir: string, folder: string, traceId: string, age: number): string {
  const start = T0 - age * DAY
  return saveTrace(buildTrace('refund', [], { trace_id: traceId, started_at: start, ended_at: start + 2 }), { traceDir: join(dir, folder) })
}

/** What a prune of `old` and `reported` (threeRuns) writes before it removes a file. */
const CRASHED_JOURNAL = [
  { ...scope, run_id: 'old', files: ['a/refund.trace.json'] },
  { ...scope, run_id: 'reported', files: ['b/refund.trace.json', 'ledger/acme/default/reported.trace.json'] },
]

const ids = async (ledger: TestLedger): Promise<string[]> =>
  (await ledger.call<{ runs: Array<{ run_id: string }> }>('run.list', { order_by: 'started_asc' })).body.runs.map((run) => run.run_id)

/**
 * Three runs of one agent: `old` (a trace session() wrote, 200 days old),
 * `reported` (begun over HTTP 150 days ago, and the trace of the session
 * that reported it) and `new` (a trace session() wrote at T0).
 */
async function threeRuns(dir: string): Promise<{ ledger: TestLedger; files: { old: string; reportedTrace: string; new: string; reportedLedger: string } }> {
  const files = {
    old: sessionTrace(dir, 'a', 'old', 200),
    reportedTrace: sessionTrace(dir, 'b', 'reported', 150),
    new: sessionTrace(dir, 'c', 'new', 0),
    reportedLedger: ledgerPath(dir, { ...scope, run_id: 'reported' }),
  }
  const ledger = await startDirectoryLedger({ dir, org: 'acme' })
  ledger.clock.seconds = T0 - 150 * DAY
  expect((await ledger.call('run.begin', { run_id: 'reported', agent: 'refund', goal: 'g' })).status).toBe(200)
  expect((await ledger.call('run.complete', { run_id: 'reported', status: 'completed' })).status).toBe(200)
  ledger.clock.seconds = T0
  return { ledger, files }
}

describe('the directory store prune', () => {
  it('removes the traces session() wrote and both files of a run a session reported, and a reopened store finds what the index had', async () => {
    const dir = tempDir()
    const { ledger, files } = await threeRuns(dir)
    expect(await ids(ledger)).toEqual(['old', 'reported', 'new'])
    expect((await ledger.call('run.prune', { older_than: '90d' })).body).toMatchObject({ removed: 2 })
    expect(Object.fromEntries(Object.entries(files).map(([name, path]) => [name, existsSync(path)]))).toEqual({
      old: false,
      reportedTrace: false,
      new: true,
      reportedLedger: false,
    })
    expect(existsSync(pruneJournalPath(dir))).toBe(false)
    expect(await ids(ledger)).toEqual(['new'])
    await ledger.server.close()
    const reopened = DirectoryStore.open({ dir, ...scope, watch: false })
    onTestFinished(() => reopened.close())
    expect((await reopened.list({ ...scope, ...allRuns }, scope)).runs.map((run) => run.run_id)).toEqual(['new'])
  })

  it('finishes a prune cut short by a crash at any point when the store opens again, and leaves a file session() wrote a new run into', async () => {
    for (let crashedAfter = 0; crashedAfter <= 3; crashedAfter++) {
      const dir = tempDir()
      const { ledger, files } = await threeRuns(dir)
      await ledger.server.close()
      // The journal a prune of `old` and `reported` writes, and the files it had removed when the process died.
      writeFileSync(pruneJournalPath(dir), renderPruneJournal(CRASHED_JOURNAL))
      for (const path of [files.old, files.reportedTrace, files.reportedLedger].slice(0, crashedAfter)) rmSync(path)
      // Since the crash, session() wrote a new run over the file of `old`.
      if (crashedAfter === 0) sessionTrace(dir, 'a', 'newer', 1)
      const reopened = DirectoryStore.open({ dir, ...scope, watch: false })
      onTestFinished(() => reopened.close())
      const left = (await reopened.list({ ...scope, ...allRuns }, scope)).runs.map((run) => run.run_id)
      expect([crashedAfter, left]).toEqual([crashedAfter, crashedAfter === 0 ? ['newer', 'new'] : ['new']])
      expect([existsSync(files.reportedTrace), existsSync(files.reportedLedger), existsSync(pruneJournalPath(dir))]).toEqual([false, false, false])
    }
  })
})

const allRuns = { limit: 200, offset: 0, orderBy: 'started_asc' } as const

/** `count` completed ledger runs of `refund` in `dir`, 200 days old and a second apart, and one from yesterday (`newest`), written as the store writes them. */
function manyOldRuns(dir: string, count: number): void {
  mkdirSync(ledgerFolder(dir, 'local', 'default'), { recursive: true })
  const now = Date.now() / 1000
  for (let n = 0; n <= count; n++) {
    const started = n === count ? now - DAY : now - 200 * DAY + n
    const run = { ...blankRun(), org: 'local', namespace: 'default', run_id: n === count ? 'newest' : `r${n}`, agent: 'refund', goal: 'g' }
    Object.assign(run, { status: 'completed', started_at: started, completed_at: started + 1, duration_ms: 1000 })
    writeFileSync(ledgerPath(dir, run), renderTrace(ledgerFileOf(run, undefined), { redact: false }))
  }
}

describe('the directory store prune killed midway (SIGKILL)', () => {
  it('leaves files that the next open finishes pruning: every run there whole or gone, never half', async () => {
    for (const count of [4000, 12000]) {
      const cwd = tempDir()
      const dir = join(cwd, 'store')
      manyOldRuns(dir, count)
      const child = spawn(process.execPath, [CLI, 'ledger', 'prune', '--store', dir, '--older-than', '90d'], { cwd, stdio: 'ignore' })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      // Killed the moment its journal is there: it is removing files.
      while (!existsSync(pruneJournalPath(dir)) && child.exitCode === null) await new Promise((resolve) => setImmediate(resolve))
      child.kill('SIGKILL')
      await exited
      const left = readdirSync(ledgerFolder(dir, 'local', 'default')).length
      if (left <= 1 || !existsSync(pruneJournalPath(dir))) continue // It finished first: try again with more runs.
      const reopened = DirectoryStore.open({ dir, org: 'local', namespace: 'default', watch: false })
      onTestFinished(() => reopened.close())
      const scoped = { org: 'local', namespace: 'default' }
      expect([left > 1, (await reopened.list({ ...scoped, ...allRuns }, scoped)).runs.map((run) => run.run_id)]).toEqual([true, ['newest']])
      expect([existsSync(pruneJournalPath(dir)), readdirSync(ledgerFolder(dir, 'local', 'default'))]).toEqual([false, ['newest.trace.json']])
      return
    }
    throw new Error('every prune finished before it could be killed')
  }, 120_000)
})

/** Whether `chattr +i` makes a folder refuse new files here (root on ext4 and alike). */
function canFreezeFolders(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'reagent-chattr-'))
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' })
    try {
      writeFileSync(join(probe, 'x'), '')
      return false
    } catch {
      return true
    } finally {
      execFileSync('chattr', ['-i', probe], { stdio: 'ignore' })
    }
  } catch {
    return false
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

describe.skipIf(!canFreezeFolders())('the directory store prune when the disk refuses', () => {
  it('answers 503, keeps in its index exactly the runs whose files are left, and the next prune finishes the work', async () => {
    const dir = tempDir()
    const { ledger, files } = await threeRuns(dir)
    const folder = join(dir, 'ledger', 'acme', 'default')
    mkdirSync(folder, { recursive: true })
    execFileSync('chattr', ['+i', folder])
    onTestFinished(() => void execFileSync('chattr', ['-i', folder]))
    expect(await ledger.call('run.prune', { older_than: '90d' })).toEqual({
      status: 503,
      body: { error: 'unavailable', message: `run.prune: the ledger's store (${dir}) cannot remove its files; try again in a moment` },
    })
    // `old` is gone whole; `reported` lost the trace session() wrote, and is there whole in its ledger file.
    expect([existsSync(files.old), existsSync(files.reportedTrace), existsSync(files.reportedLedger), existsSync(pruneJournalPath(dir))]).toEqual([
      false,
      false,
      true,
      true,
    ])
    // The journal names each run's files, the ledger's file last: the one the crash test above starts from.
    expect(JSON.parse(readFileSync(pruneJournalPath(dir), 'utf8'))).toEqual({ prune_version: 1, runs: CRASHED_JOURNAL })
    expect(await ids(ledger)).toEqual(['reported', 'new'])
    expect((await ledger.call('run.get', { run_id: 'reported' })).body).toMatchObject({ found: true, run: { status: 'completed' } })
    // A dry run counts what is left, and removes nothing.
    expect((await ledger.call('run.prune', { older_than: '90d', dry_run: true })).body).toMatchObject({ removed: 1 })
    expect(await ids(ledger)).toEqual(['reported', 'new'])
    execFileSync('chattr', ['-i', folder])
    expect((await ledger.call('run.prune', { older_than: '90d' })).body).toMatchObject({ removed: 1 })
    expect([existsSync(files.reportedLedger), existsSync(pruneJournalPath(dir))]).toEqual([false, false])
    expect(await ids(ledger)).toEqual(['new'])
  })
})
