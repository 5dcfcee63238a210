/**
 * Is the process (or thread) that writes a journal still there? A journal
 * whose writer is gone is a run that was interrupted.
 *
 * - same host, process gone (`kill(pid, 0)` says ESRCH): gone, at once, so a
 *   SIGKILLed run shows as interrupted on the next read;
 * - same host, main thread of a live process: alive (a heartbeat older than
 *   an hour means the pid was reused);
 * - a worker thread of a live process, or another host: alive while the
 *   journal's heartbeat (its mtime, touched every HEARTBEAT_MS by its
 *   writer while the writer's event loop runs) is fresh.
 */
import { currentThread, hostName } from '../base/node-builtins.js'
import type { JournalWriterId } from './journal-format.js'

/** How often an open journal's mtime is touched. */
export const HEARTBEAT_MS = 2_000
/** A heartbeat this old, where the pid cannot tell, means the writer is gone. */
export const STALE_HEARTBEAT_MS = 30_000
/** Even a live pid does not keep a journal alive past this: the pid was reused. */
const REUSED_PID_MS = 60 * 60_000

let host: string | undefined

/** This process and thread, as a journal names its writer. */
export function currentWriter(): JournalWriterId {
  host ??= hostName()
  return { pid: process.pid, thread: currentThread().threadId, host }
}

/** Whether a process with this pid exists on this machine. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the writer of a journal last touched at `mtimeMs` is still recording it. */
export function isWriterAlive(writer: JournalWriterId, mtimeMs: number, now: number = Date.now()): boolean {
  const age = now - mtimeMs
  host ??= hostName()
  if (writer.host === host) {
    if (!isProcessAlive(writer.pid)) return false
    if (writer.thread === 0) return age < REUSED_PID_MS
  }
  return age < STALE_HEARTBEAT_MS
}
