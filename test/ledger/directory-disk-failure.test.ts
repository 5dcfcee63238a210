/**
 * The disk refusing the directory store's writes (an immutable folder: EPERM
 * even for root) is a dependency failing: 503 with Retry-After and a log
 * line, nothing half-done in the index, and the same calls succeed once the
 * disk takes writes again.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger } from './harness.js'

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

describe.skipIf(!canFreezeFolders())('the directory store when the disk refuses its writes', () => {
  it('answers 503 with Retry-After and logs why, keeps its index as it was, and works again once the disk does', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir, org: 'acme' })
    const folder = join(dir, 'ledger', 'acme', 'default')
    mkdirSync(folder, { recursive: true })
    expect((await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'before' })).status).toBe(200)
    execFileSync('chattr', ['+i', folder])
    onTestFinished(() => void execFileSync('chattr', ['-i', folder]))
    const response = await fetch(`${ledger.url}/v1/run.complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ run_id: 'before', status: 'completed' }),
    })
    expect([response.status, response.headers.get('retry-after'), await response.json()]).toEqual([
      503,
      '1',
      { error: 'unavailable', message: `run.complete: the ledger's store (${dir}) cannot write its files; try again in a moment` },
    ])
    expect((await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'during' })).status).toBe(503)
    expect(ledger.log.some((line) => line.includes('run.complete: the directory store cannot write its files (Cannot write'))).toBe(true)
    expect((await ledger.call('run.get', { run_id: 'before' })).body).toMatchObject({ run: { status: 'active' } })
    expect((await ledger.call('run.get', { run_id: 'during' })).body).toMatchObject({ found: false })
    execFileSync('chattr', ['-i', folder])
    expect((await ledger.call('run.complete', { run_id: 'before', status: 'completed' })).status).toBe(200)
    expect((await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'during' })).status).toBe(200)
  })
})
