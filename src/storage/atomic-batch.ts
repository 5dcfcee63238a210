/**
 * Many files written atomically together, for a batch of writes that is
 * acknowledged at once (the run ledger's directory store): each file goes
 * to a temporary file of its own as writeFileAtomic does, then every one is
 * flushed to the disk at the same time (fdatasync on libuv's thread pool, so
 * the event loop keeps serving, and the file system's journal commits them
 * together), then each is renamed over its target. A reader or a crash sees
 * each file whole, old or new; once the promise resolves, all are on the
 * disk.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, fdatasync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { TraceFileError } from '../errors/index.js'

const fdatasyncAsync = promisify(fdatasync)

export interface FileText {
  path: string
  text: string
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

/** Writes every file of `files` (distinct paths); throws `TraceFileError` naming the first that failed, leaving every target as it was. */
export async function writeFilesAtomic(files: readonly FileText[]): Promise<void> {
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
  if (failed !== undefined) {
    for (const file of staged) rmSync(file.temp, { force: true })
    throw new TraceFileError(failed.path, 'write', failed.error)
  }
  for (const [i, file] of staged.entries()) {
    try {
      renameSync(file.temp, file.path)
    } catch (error) {
      for (const rest of staged.slice(i)) rmSync(rest.temp, { force: true })
      throw new TraceFileError(file.path, 'write', error)
    }
  }
}
