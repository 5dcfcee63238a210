/**
 * Reading a trace directory: its recorded runs (trace files, and the
 * journals of runs still open or interrupted), known by their top-level
 * fields, and why a file that is not a readable trace was skipped.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TraceFileError, TraceFormatError } from '../errors.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'
import { TRACE_FILE_SUFFIX } from './paths.js'
import { sweepDirectory } from './recovery.js'
import { loadTrace } from './runs.js'
import { readTraceFields } from './trace-fields.js'

/**
 * The trace files directly in `dir`: paths of its `*.trace.json` files,
 * sorted, without dot files (temporary files of atomic writes) and without
 * `golden/`. Null when `dir` does not exist.
 */
export function listTraceFiles(dir: string): string[] | null {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new TraceFileError(dir, 'list', error)
  }
  return entries
    .filter((entry) => !entry.isDirectory() && !entry.name.startsWith('.') && entry.name.endsWith(TRACE_FILE_SUFFIX))
    .map((entry) => join(dir, entry.name))
    .sort()
}

/** Whether `path` is an existing file (not a directory). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

export interface TraceFile {
  path: string
  trace: Trace
}

/** A run known by its top-level fields: a trace file, or the journal of a run that is open or was interrupted. */
export interface TraceFieldsFile {
  path: string
  fields: TraceFields
}

export interface SkippedFile {
  path: string
  /** Why it is not a readable trace: see `unreadableReason`. */
  reason: string
}

/**
 * Why a file is not a readable trace, in one line: where in it and which rule
 * of the format it breaks (`at turns[0]: missing required key "index" (rule:
 * required)`, `the file is not JSON (...) (rule: json)`), or what the file
 * system said (`cannot be read (EACCES)`). Every report of a skipped or
 * invalid file words it so.
 */
export function unreadableReason(error: unknown): string {
  if (error instanceof TraceFormatError) {
    if (error.rule === 'json') return `${error.detail} (rule: json)`
    return `at ${error.jsonPath === '' ? 'the top level' : error.jsonPath}: ${error.detail} (rule: ${error.rule})`
  }
  const code = error instanceof TraceFileError ? error.code : (error as NodeJS.ErrnoException).code
  return `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`
}

/** Reads the whole trace at `path`; one that cannot be read is added to `skipped`, never thrown. */
export function loadTraceOrSkip(path: string, skipped: SkippedFile[]): Trace | undefined {
  try {
    return loadTrace(path)
  } catch (error) {
    skipped.push({ path, reason: unreadableReason(error) })
    return undefined
  }
}

export interface TraceDirectory {
  /** False when the directory does not exist (then both lists are empty). */
  exists: boolean
  traces: TraceFieldsFile[]
  skipped: SkippedFile[]
}

function withoutTurns(trace: Trace): TraceFields {
  const { turns: _turns, ...fields } = trace
  return fields
}

/**
 * Every recorded run directly in `dir` (not `golden/`), by its top-level
 * fields. The directory is swept first (see recovery.ts): a run whose
 * process died is written out as an interrupted trace. A run still being
 * recorded is listed by its journal (status "active"), in place of the
 * earlier run its file holds; so is an interrupted run that could not be
 * written out. Dot files and files not named `*.trace.json` are ignored; a
 * file that cannot be read or is not a valid trace is listed in `skipped`
 * with the reason, never thrown. Trace files are read at their two ends only.
 */
export function scanTraceDirectory(dir: string): TraceDirectory {
  const { openJournals, unreadable } = sweepDirectory(dir)
  const paths = listTraceFiles(dir)
  if (paths === null) return { exists: false, traces: [], skipped: [] }
  const out: TraceDirectory = { exists: true, traces: [], skipped: [] }
  const replaced = new Map<string, number>()
  for (const journal of openJournals) {
    const key = resolve(journal.runPath)
    replaced.set(key, Math.max(replaced.get(key) ?? -Infinity, journal.trace.started_at))
    out.traces.push({ path: journal.path, fields: withoutTurns(journal.trace) })
  }
  for (const path of paths) {
    let fields: TraceFields
    try {
      fields = readTraceFields(path)
    } catch (error) {
      out.skipped.push({ path, reason: unreadableReason(error) })
      continue
    }
    const newer = replaced.get(resolve(path))
    if (newer === undefined || fields.started_at > newer) out.traces.push({ path, fields })
  }
  for (const { path, error } of unreadable) out.skipped.push({ path, reason: unreadableReason(error) })
  out.traces.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return out
}
