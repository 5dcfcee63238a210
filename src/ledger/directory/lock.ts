/**
 * One server per trace directory: its index lives in the server's memory, so
 * a second server on the same directory would answer from a stale copy. The
 * lock file names the process that holds it; one whose process is gone (a
 * crash, `kill -9`) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { UsageError } from '../../errors/index.js'

export const LOCK_FILE = '.ledger.lock'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock of `dir` and returns its release; throws `UsageError` naming the holder. */
export function lockDirectory(dir: string): () => void {
  const file = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10)
    if (Number.isInteger(holder) && isAlive(holder)) {
      throw new UsageError(
        `another reagent-flow server (pid ${holder}) is serving ${dir}: stop it, or run several servers on one PostgreSQL store (--store postgres://...) instead`,
      )
    }
    rmSync(file, { force: true })
  }
  throw new UsageError(`could not take the lock ${file}: another process keeps creating it`)
}
