/**
 * Many files written atomically together, for a batch of writes that is
 * acknowledged at once (the run ledger's directory store), in two steps:
 * `prepareFilesAtomic` writes each file to a temporary file of its own (as
 * writeFileAtomic does) and flushes them all to the disk at the same time
 * (fdatasync on libuv's thread pool, so the event loop keeps serving, and
 * the file system's journal commits them together); `commit()` then renames
 * them all over their targets (on the thread pool too). A reader or a crash
 * sees each file whole, old or new; once `commit()` resolves, all are on the
 * disk. A caller may prepare the next batch while an earlier one commits,
 * and commit them in order.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, fdatasync, mkdirSync, openSync, rename, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { TraceFileError } from '../errors/index.js'

const fdatasyncAsync = promisify(fdatasync)
const renameAsync = promisify(rename)

export interface FileText {
  path: string
  text: string
}

/** Files written and flushed, not yet in place: `commit()` renames them (throws TraceFileError naming a file that failed), `abandon()` removes them. */
export interface PreparedFiles {
  commit(): Promise<void>
  abandon(): void
}

interface Staged {
  path: string
  temp: string
  fd: number
}

function tempPathFor(path: string): string {
  // The name writeAtomic's sweep recognises as a temporary file (parseTempName), thread 0.
  return join(dirname(path), `.${basename(path)}.${process.pid}-0-${randomBytes(6).toString('hex')}.tmp`)
}

/** Writes and flushes every file of `files` (distinct paths) beside its target; throws `TraceFileError` naming the first that failed, leaving every target as it was. */
export async function prepareFilesAtomic(files: readonly FileText[]): Promise<PreparedFiles> {
  const staged: Staged[] = []
  let failed: { path: string; error: unknown } | undefined
  for (const { path, text } of files) {
    const temp = tempPathFor(path)
    try {
      mkdirSync(dirname(path), { recursive: true })
      const fd = openSync(temp, 'wx')
      staged.push({ path, temp, fd })
      const bytes = Buffer.from(text, 'utf8')
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written)
    } catch (error) {
      failed = { path, error }
      break
    }
  }
  if (failed === undefined) {
    const synced = await Promise.allSettled(staged.map((file) => fdatasyncAsync(file.fd)))
    const index = synced.findIndex((result) => result.status === 'rejected')
    if (index !== -1) failed = { path: staged[index]!.path, error: (synced[index] as PromiseRejectedResult).reason }
  }
  for (const file of staged) closeSync(file.fd)
  const abandon = (): void => {
    for (const file of staged) rmSync(file.temp, { force: true })
  }
  if (failed !== undefined) {
    abandon()
    throw new TraceFileError(failed.path, 'write', failed.error)
  }
  return {
    abandon,
    async commit() {
      const renamed = await Promise.allSettled(staged.map((file) => renameAsync(file.temp, file.path)))
      const index = renamed.findIndex((result) => result.status === 'rejected')
      if (index !== -1) {
        abandon()
        throw new TraceFileError(staged[index]!.path, 'write', (renamed[index] as PromiseRejectedResult).reason)
      }
    },
  }
}
