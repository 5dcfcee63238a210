/**
 * Reading a journal back as the run it records: `active` while its writer
 * is alive, `interrupted` once the writer is gone without closing it (see
 * liveness.ts), or what its close record says.
 */
import { readFileSync, statSync } from 'node:fs'
import { TraceFileError, TraceFormatError, TraceNotFoundError } from '../errors/index.js'
import { epochSeconds } from '../trace/ids.js'
import type { Trace } from '../trace/types.js'
import { readJournalText, type CloseRecord, type JournalWriterId, type StepRecord } from './journal-format.js'
import { isWriterAlive } from './liveness.js'
import { parseJournalName } from './paths.js'

export interface JournalFile {
  /** The journal. */
  path: string
  /** The run file it stands for. */
  runPath: string
  writer: JournalWriterId
  /** The run as recorded so far, with the status a reader sees now. */
  trace: Trace
  /** The close record of a kept journal (the session closed: failed, cancelled, or recovered as interrupted). */
  closed: CloseRecord | undefined
  /** The model calls and tool executions the run completed (what `resume()` answers from). */
  steps: StepRecord[]
  /** The writer is still recording it. */
  isLive: boolean
  mtimeMs: number
}

/** Why a run whose writer is gone never closed. */
export function interruptionReason(writer: JournalWriterId): string {
  return `process ${writer.pid}${writer.thread === 0 ? '' : ` (thread ${writer.thread})`} exited before the session closed`
}

/**
 * Reads the journal at `path`. A missing file is a `TraceNotFoundError`, a
 * file that is not a journal a `TraceFormatError` naming it.
 */
export function readJournal(path: string): JournalFile {
  const names = parseJournalName(path)
  if (names === undefined) {
    throw new TraceFormatError(path, '', 'journal', 'the file name is not <name>.<trace_id>.journal.jsonl')
  }
  let text: string
  let mtimeMs: number
  try {
    mtimeMs = statSync(path).mtimeMs
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new TraceNotFoundError(path, 'The journal is gone: its session closed (the run is in its trace file), or it was recovered into one.')
    }
    throw new TraceFileError(path, 'read', error)
  }
  let content
  try {
    content = readJournalText(text, path)
  } catch (error) {
    if (error instanceof TraceFormatError) throw error
    throw new TraceFormatError(path, '', 'journal', `it is not a readable journal (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    })
  }
  const { writer, trace, closed, steps, lost } = content
  const isLive = closed === undefined && isWriterAlive(writer, mtimeMs)
  if (closed === undefined && !isLive) {
    trace.status = 'interrupted'
    trace.interruption_reason = interruptionReason(writer)
    // The last sign of life: the journal's last append or heartbeat.
    trace.ended_at = Math.max(trace.started_at, Math.min(mtimeMs / 1000, epochSeconds()))
  }
  // What the journal holds is not the whole run: never read as one that finished.
  if (lost !== undefined && !isLive) {
    const missing = `the journal could not be written after turn ${lost.turns} (${lost.error}), so the run's later turns are missing`
    trace.interruption_reason = trace.interruption_reason === undefined ? missing : `${trace.interruption_reason}; ${missing}`
    trace.status = 'interrupted'
  }
  return { path, runPath: names.runPath, writer, trace, closed, steps, isLive, mtimeMs }
}
