/**
 * The run ledger: every recorded run in a trace directory, known by its
 * top-level fields only (read from the two ends of each file, see
 * storage.readTraceFields), then filtered, ordered and paged. Only the runs
 * on the page are read whole.
 */
import { join } from 'node:path'
import { TraceNotFoundError } from '../errors/index.js'
import { scanTraceDirectory, TRACE_FILE_SUFFIX, type SkippedFile, type TraceDirectory, type TraceFieldsFile } from '../storage/index.js'
import { durationMs, statusOf } from '../trace/facts.js'
import type { CommandContext } from './command.js'
import { goalOf, testKeyOf } from './run-facts.js'
import { shellCommand } from '../report/shell.js'

export type RunFile = TraceFieldsFile
export type UnreadableFile = SkippedFile

export interface RunDirectory {
  runs: RunFile[]
  unreadable: UnreadableFile[]
}

export const ORDERS = ['started_desc', 'started_asc', 'duration_desc', 'duration_asc'] as const
export const GRADE_FILTERS = ['ungraded', 'graded', 'pass', 'fail'] as const
export const STATUSES = ['active', 'completed', 'failed', 'cancelled', 'interrupted'] as const

export interface RunQuery {
  status?: (typeof STATUSES)[number] | undefined
  /** Case-insensitive text in the name (inside vitest, the test key too), the trace_id or `metadata.goal`. */
  q?: string | undefined
  grade?: (typeof GRADE_FILTERS)[number] | undefined
  orderBy: (typeof ORDERS)[number]
  limit: number
  offset: number
}

/** The runs of a scanned directory (see scanTraceDirectory); one that does not exist is a `TraceNotFoundError`. */
export function runsOf(directory: TraceDirectory, dir: string): RunDirectory {
  if (!directory.exists) {
    throw new TraceNotFoundError(
      join(dir, `*${TRACE_FILE_SUFFIX}`),
      `The directory ${dir} does not exist. Run from your project's root, or pass --dir with the traceDir your sessions write to.`,
    )
  }
  return { runs: directory.traces, unreadable: directory.skipped }
}

/** Every run in `dir` by its top-level fields; files that are not readable traces are set apart, never thrown. */
export function scanRuns(dir: string): RunDirectory {
  return runsOf(scanTraceDirectory(dir), dir)
}

/** `scanTraceDirectory(dir)`, done on the first call only: resolving a run and finding its relatives share one scan. */
export function scanOnce(dir: string): () => TraceDirectory {
  let directory: TraceDirectory | undefined
  return () => (directory ??= scanTraceDirectory(dir))
}

const SHOWN_UNREADABLE = 10

/** Names the files of `dir` that are not readable traces (as --json lists them) on stderr, the first ten of them. */
export function noteUnreadable(files: ReadonlyArray<{ file: string; reason: string }>, dir: string, ctx: CommandContext): void {
  for (const { file, reason } of files.slice(0, SHOWN_UNREADABLE)) ctx.note(`skipped ${file}: not a readable trace: ${reason}`)
  if (files.length > SHOWN_UNREADABLE) {
    ctx.note(`skipped ${files.length - SHOWN_UNREADABLE} more unreadable files; ${shellCommand(['reagent-flow', 'validate', '--dir', dir])} lists them all`)
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
  return [fields.name, testKeyOf(fields) ?? '', fields.trace_id, goalOf(fields) ?? ''].some((text) => text.toLowerCase().includes(needle))
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
