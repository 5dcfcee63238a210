/**
 * Where traces live and how names become file names.
 *
 *   <traceDir>/<name>.trace.json                    the latest recorded run of <name>
 *   <traceDir>/<name>.<trace_id>.journal.jsonl      a run being recorded (or one that never closed)
 *   <traceDir>/golden/<name>.trace.json             the golden baseline of <name>
 */
import { basename, dirname, join } from 'node:path'
import { ReagentError } from '../errors.js'

export const DEFAULT_TRACE_DIR = '.reagent'
export const TRACE_FILE_SUFFIX = '.trace.json'
export const JOURNAL_SUFFIX = '.journal.jsonl'

/**
 * A trace name as a file name, the way reagent-flow 0.5 does it: anything but
 * letters, digits, `_`, `-` and `.` becomes `_`, then leading and trailing `.`
 * and `_` are stripped. So no name can climb out of the trace directory.
 */
export function sanitizeName(name: string): string {
  const safe = String(name)
    .replace(/[^\p{L}\p{N}_.-]/gu, '_')
    .replace(/^[._]+|[._]+$/g, '')
  if (safe === '') {
    throw new ReagentError(
      `The trace name ${JSON.stringify(name)} has no character usable in a file name. ` +
        `Name the session with letters, digits, "-", "_" or ".".`,
    )
  }
  return safe
}

export interface TraceLocation {
  /** Directory of traces. Default: `.reagent` (relative to the working directory). */
  traceDir?: string | undefined
  /** The golden baseline instead of the latest run. */
  golden?: boolean | undefined
}

/** The file of trace `name`: `<traceDir>/<name>.trace.json` or `<traceDir>/golden/<name>.trace.json`. */
export function tracePath(name: string, { traceDir = DEFAULT_TRACE_DIR, golden = false }: TraceLocation = {}): string {
  const file = `${sanitizeName(name)}${TRACE_FILE_SUFFIX}`
  return golden ? join(traceDir, 'golden', file) : join(traceDir, file)
}

/** The journal of run `traceId`, beside the run file it becomes: `<dir>/<name>.<trace_id>.journal.jsonl`. */
export function journalPath(runPath: string, traceId: string): string {
  const base = basename(runPath)
  const stem = base.endsWith(TRACE_FILE_SUFFIX) ? base.slice(0, -TRACE_FILE_SUFFIX.length) : base
  return join(dirname(runPath), `${stem}.${traceId}${JOURNAL_SUFFIX}`)
}

/** A trace id as ours are made (a ULID): 26 characters of Crockford's base 32. */
const TRACE_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/

/** The run file and trace id a journal's file name stands for; undefined for any other file name. */
export function parseJournalName(path: string): { runPath: string; traceId: string } | undefined {
  const base = basename(path)
  if (!base.endsWith(JOURNAL_SUFFIX)) return undefined
  const stem = base.slice(0, -JOURNAL_SUFFIX.length)
  const dot = stem.lastIndexOf('.')
  const traceId = stem.slice(dot + 1)
  if (dot <= 0 || !TRACE_ID.test(traceId)) return undefined
  return { runPath: join(dirname(path), `${stem.slice(0, dot)}${TRACE_FILE_SUFFIX}`), traceId }
}
