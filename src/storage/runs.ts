/** Loading one recorded run, from its trace file or its journal. */
import { dirname } from 'node:path'
import type { Trace } from '../trace/types.js'
import { readJournal } from './journal-reader.js'
import { DEFAULT_TRACE_DIR, parseJournalName, TRACE_FILE_SUFFIX } from './paths.js'
import { sweepDirectory } from './recovery.js'
import { readTraceFile } from './trace-reader.js'

/**
 * Reads and validates a recorded run: a trace file of any size, or the
 * journal of a run that is still open (status "active") or whose process
 * died ("interrupted"). For a trace file, the journals of its name left by a
 * process that died are written out first, so a run killed after the file's
 * run is what is read. Throws `TraceNotFoundError`, `TraceFormatError` or
 * `TraceFileError`, each naming the file.
 */
export function loadTrace(path: string): Trace {
  if (parseJournalName(path) === undefined) sweepDirectory(dirname(path), path)
  return readRun(path)
}

/** loadTrace for a file a directory scan just listed: its folder was swept by the scan. */
export function readRun(path: string): Trace {
  if (parseJournalName(path) !== undefined) return readJournal(path).trace
  return readTraceFile(path, `Check the path: a session named "x" writes <traceDir>/x${TRACE_FILE_SUFFIX} (traceDir defaults to ${DEFAULT_TRACE_DIR}).`)
}
