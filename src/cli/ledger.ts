/**
 * The run ledger: every recorded run in a trace directory, known by its
 * top-level fields only (read from the two ends of each file, see
 * storage.readTraceFields), then filtered, ordered and paged. Only the runs
 * on the page are read whole.
 */
import { join } from 'node:path'
import { TraceFormatError, TraceNotFoundError } from '../errors.js'
import { listTraceFiles, loadTrace, readTraceFields, TRACE_FILE_SUFFIX } from '../storage.js'
import { durationMs, statusOf } from '../trace/facts.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'
import { describeFormatError } from './format.js'
import { goalOf } from './run-facts.js'

export interface RunFile {
  path: string
  fields: TraceFields
}

export interface UnreadableFile {
  path: string
  reason: string
}

export interface RunDirectory {
  runs: RunFile[]
  unreadable: UnreadableFile[]
}

export const ORDERS = ['started_desc', 'started_asc', 'duration_desc', 'duration_asc'] as const
export const GRADE_FILTERS = ['ungraded', 'graded', 'pass', 'fail'] as const
export const STATUSES = ['completed', 'failed', 'cancelled'] as const

export interface RunQuery {
  status?: (typeof STATUSES)[number] | undefined
  /** Case-insensitive text in the name, the trace_id or `metadata.goal`. */
  q?: string | undefined
  grade?: (typeof GRADE_FILTERS)[number] | undefined
  orderBy: (typeof ORDERS)[number]
  limit: number
  offset: number
}

/** Why a file is not a readable trace, in a few words. */
export function unreadableReason(error: unknown): string {
  if (error instanceof TraceFormatError) return describeFormatError(error)
  const code = (error as NodeJS.ErrnoException).code
  return `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`
}

/** The trace files of `dir`. A missing directory is a `TraceNotFoundError`. */
export function traceFilesOf(dir: string): string[] {
  const files = listTraceFiles(dir)
  if (files === null) {
    throw new TraceNotFoundError(
      join(dir, `*${TRACE_FILE_SUFFIX}`),
      `The directory ${dir} does not exist. Run from your project's root, or pass --dir with the traceDir your sessions write to.`,
    )
  }
  return files
}

/** Every run in `dir` by its top-level fields; files that are not readable traces are set apart, never thrown. */
export function scanRuns(dir: string): RunDirectory {
  const out: RunDirectory = { runs: [], unreadable: [] }
  for (const path of traceFilesOf(dir)) {
    try {
      out.runs.push({ path, fields: readTraceFields(path) })
    } catch (error) {
      out.unreadable.push({ path, reason: unreadableReason(error) })
    }
  }
  return out
}

/** Reads the whole trace of `run`, or sets it apart as unreadable (its middle may be damaged). */
export function loadRun(run: RunFile, unreadable: UnreadableFile[]): Trace | undefined {
  try {
    return loadTrace(run.path)
  } catch (error) {
    unreadable.push({ path: run.path, reason: unreadableReason(error) })
    return undefined
  }
}

function matches(run: RunFile, query: RunQuery, needle: string | undefined): boolean {
  const { fields } = run
  if (query.status !== undefined && statusOf(fields) !== query.status) return false
  if (query.grade !== undefined) {
    const verdict = fields.grade?.grade
    if (query.grade === 'ungraded' ? verdict !== undefined : query.grade === 'graded' ? verdict === undefined : verdict !== query.grade) {
      return false
    }
  }
  if (needle === undefined) return true
  return [fields.name, fields.trace_id, goalOf(fields) ?? ''].some((text) => text.toLowerCase().includes(needle))
}

/** Runs without an end (duration null) come last in both duration orders. */
function compare(orderBy: RunQuery['orderBy']): (a: RunFile, b: RunFile) => number {
  const byPath = (a: RunFile, b: RunFile): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  if (orderBy === 'started_desc') return (a, b) => b.fields.started_at - a.fields.started_at || byPath(a, b)
  if (orderBy === 'started_asc') return (a, b) => a.fields.started_at - b.fields.started_at || byPath(a, b)
  const sign = orderBy === 'duration_desc' ? -1 : 1
  return (a, b) => {
    const x = durationMs(a.fields)
    const y = durationMs(b.fields)
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0) || byPath(a, b)
    return sign * (x - y) || byPath(a, b)
  }
}

/** The runs matching `query`: how many, and the page asked for. */
export function queryRuns(runs: readonly RunFile[], query: RunQuery): { total: number; page: RunFile[] } {
  const needle = query.q === undefined || query.q === '' ? undefined : query.q.toLowerCase()
  const found = runs.filter((run) => matches(run, query, needle))
  found.sort(compare(query.orderBy))
  return { total: found.length, page: found.slice(query.offset, query.offset + query.limit) }
}
