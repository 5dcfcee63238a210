/**
 * Sweeping a trace directory: what a run that never finished left behind is
 * recovered or cleaned up by the next session or command that touches it.
 *
 * - a journal whose writer is gone (a killed process, a crashed thread) is
 *   written out as its run's trace file, status "interrupted", and kept,
 *   closed, so the run can be resumed;
 * - a kept journal (failed, cancelled, interrupted) goes once a later run of
 *   its name completed, or after KEEP_CLOSED_MS;
 * - a temporary file of an atomic write whose writer is gone goes.
 *
 * Every step is best effort: a directory that cannot be written (a CI
 * artifact opened read-only) is read as it is, the journals standing in
 * for the runs they record.
 */
import { appendFileSync, closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Trace } from '../trace/types.js'
import { parseTempName } from './atomic-write.js'
import type { CloseRecord } from './journal-format.js'
import { readJournal, type JournalFile } from './journal-reader.js'
import { isProcessAlive } from './liveness.js'
import { JOURNAL_SUFFIX, parseJournalName } from './paths.js'
import { readTraceFieldsOrUndefined } from './trace-fields.js'
import { traceChunks, writeChunks } from './trace-writer.js'

/** Kept journals older than this are removed even when no later run completed. */
export const KEEP_CLOSED_MS = 7 * 24 * 60 * 60_000
/** A temporary file this old is a leftover, whoever wrote it. */
const STALE_TEMP_MS = 60 * 60_000
/** A journal younger than this may still be getting its first line. */
const NEW_JOURNAL_MS = 60_000

export interface SweepResult {
  /** Journals of runs still open (active), or of interrupted runs that could not be written out; closed journals are not listed. */
  openJournals: JournalFile[]
  /** Closed journals kept to resume their runs from (failed, cancelled, and those just recovered as interrupted). */
  kept: JournalFile[]
  /** Journals that are not readable. */
  unreadable: Array<{ path: string; error: unknown }>
  /** Trace files this sweep wrote (interrupted runs written out): not in a listing read before it. */
  written: string[]
}

/** Removes a file if it is there; a failure is left for the next sweep. */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch {
    // Best effort: the next sweep tries again.
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs
  } catch {
    return undefined
  }
}

/** The run in a trace file was started after `trace` and completed: `trace`'s run is no longer the latest. */
function supersededBy(runPath: string, trace: Trace): { later: boolean; completed: boolean } {
  const fields = readTraceFieldsOrUndefined(runPath)
  if (fields === undefined || fields.trace_id === trace.trace_id) return { later: false, completed: false }
  const later = fields.started_at > trace.started_at
  return { later, completed: later && (fields.status ?? 'completed') === 'completed' }
}

/** Closes the journal of a writer that is gone; on a new line, should its last line have been cut short. */
function appendCloseRecord(path: string, close: CloseRecord): void {
  const fd = openSync(path, 'r')
  const last = Buffer.alloc(1)
  try {
    const size = fstatSync(fd).size
    if (size > 0) readSync(fd, last, 0, 1, size - 1)
  } finally {
    closeSync(fd)
  }
  appendFileSync(path, `${last[0] === 0x0a ? '' : '\n'}${JSON.stringify(close)}\n`)
}

/**
 * A closed journal whose trace file was never written (the session's final
 * write failed: a full disk) is the only record of its run: written out now,
 * unless its file holds it or a later run. True when written, false when it
 * could not be (the journal then stands in for its run), undefined when there
 * was nothing to do.
 */
function writeOutClosed(journal: JournalFile): boolean | undefined {
  if (journal.closed?.trace_written !== false) return undefined
  const fields = readTraceFieldsOrUndefined(journal.runPath)
  if (fields?.trace_id === journal.trace.trace_id || (fields !== undefined && fields.started_at > journal.trace.started_at)) return undefined
  try {
    writeChunks(journal.runPath, traceChunks(journal.trace, { redact: false }))
    return true
  } catch {
    return false
  }
}

/** Writes an interrupted run out as its trace file (unless a later run holds the file) and closes its journal. */
export function recoverJournal(journal: JournalFile): boolean {
  const { trace } = journal
  try {
    if (!supersededBy(journal.runPath, trace).later) {
      // The journal was redacted by its session's own rules when it was written.
      writeChunks(journal.runPath, traceChunks(trace, { redact: false }))
    }
    appendCloseRecord(journal.path, {
      kind: 'close',
      status: 'interrupted',
      ended_at: trace.ended_at ?? trace.started_at,
      interruption_reason: trace.interruption_reason ?? 'the session never closed',
    })
    return true
  } catch {
    return false
  }
}

/**
 * Sweeps `dir` (only the journals of `runPath` when given; `listed`: its
 * entries, when the caller has read them already) and returns the journals of open runs. Never throws for a file: unreadable journals are
 * returned apart; a directory that cannot be listed yields nothing.
 */
export function sweepDirectory(dir: string, runPath?: string, listed?: readonly string[]): SweepResult {
  const result: SweepResult = { openJournals: [], kept: [], unreadable: [], written: [] }
  let names: readonly string[]
  try {
    names = listed ?? readdirSync(dir)
  } catch {
    return result
  }
  const now = Date.now()
  const only = runPath === undefined ? undefined : resolve(runPath)
  for (const name of names) {
    const path = join(dir, name)
    const temp = name.startsWith('.') ? parseTempName(name) : undefined
    if (temp !== undefined) {
      if (only !== undefined) continue
      const mtime = mtimeOf(path)
      if (mtime !== undefined && (now - mtime > STALE_TEMP_MS || !isProcessAlive(temp.pid))) removeQuietly(path)
      continue
    }
    // A linked journal is never followed: recovering it would write a file of this folder from one outside it.
    if (!name.endsWith(JOURNAL_SUFFIX) || isLink(path)) continue
    const names = parseJournalName(path)
    if (names === undefined || (only !== undefined && resolve(names.runPath) !== only)) continue
    let journal: JournalFile
    try {
      journal = readJournal(path)
    } catch (error) {
      const mtime = mtimeOf(path)
      if (mtime !== undefined && now - mtime > NEW_JOURNAL_MS) result.unreadable.push({ path, error })
      continue
    }
    if (journal.closed !== undefined) {
      if (now - journal.mtimeMs > KEEP_CLOSED_MS || supersededBy(journal.runPath, journal.trace).completed) removeQuietly(path)
      else {
        result.kept.push(journal)
        const written = writeOutClosed(journal)
        if (written === true) result.written.push(journal.runPath)
        else if (written === false) result.openJournals.push(journal)
      }
      continue
    }
    if (journal.isLive || !recoverJournal(journal)) result.openJournals.push(journal)
    else {
      result.kept.push(journal)
      result.written.push(journal.runPath)
    }
  }
  return result
}
