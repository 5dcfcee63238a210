/**
 * Reading a trace directory: its recorded runs (trace files, and the
 * journals of runs still open or interrupted), known by their top-level
 * fields, and why a file that is not a readable trace was skipped.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { join, resolve } from 'node:path'
import { TraceFileError, TraceFormatError } from '../errors/index.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'
import { TRACE_FILE_SUFFIX } from './paths.js'
import type { JournalFile } from './journal-reader.js'
import { sweepDirectory } from './recovery.js'
import { readRun } from './runs.js'
import { readTraceFields } from './trace-fields.js'
import { realPathInside } from './trace-tree.js'
import { warn } from '../warnings/warnings.js'

/**
 * Folders of a trace directory that hold no runs of its own: goldens are
 * baselines, and `ledger/` holds the run ledger's runs of every org and
 * namespace (reagent-flow serve lists them itself).
 */
export const NOT_RUNS: ReadonlySet<string> = new Set(['golden', 'ledger'])
/** How deep run files may sit: a test file path under traceDir is a few folders; a link loop is cut here. */
const MAX_DEPTH = 32

/** A folder that may hold runs, with the names of its entries (read once: listing 10,000 files is the cost of a scan). */
interface RunFolder {
  dir: string
  entries: Dirent[]
}

/**
 * `entries` without the symbolic links that lead out of `root` (a real path)
 * or nowhere, each skipped with a warning: a trace directory is often an
 * artifact from elsewhere, and a link in it must not make a reader (or the
 * report it writes) show a file outside it. Links to folders are never
 * followed; a link to a file inside `root` is read as that file.
 */
function withoutLinksOut(current: string, entries: Dirent[], root: string | undefined): Dirent[] {
  return entries.filter((entry) => {
    if (!entry.isSymbolicLink() || entry.name.startsWith('.')) return true
    const path = join(current, entry.name)
    if (root !== undefined && realPathInside(path, root) !== undefined) return true
    warn(
      'REAGENT_READ',
      `${path} is a symbolic link that leads out of ${root ?? current} (or nowhere); skipped: readers do not follow links out of the folder they were given.`,
    )
    return false
  })
}

function realPathOf(dir: string): string | undefined {
  try {
    return realpathSync(dir)
  } catch {
    return undefined
  }
}

/** `dir` and the folders under it that may hold runs, depth first: not `golden/`, `ledger/`, dot folders or links. */
function runFolders(dir: string): RunFolder[] | null {
  const out: RunFolder[] = []
  const root = realPathOf(dir)
  const visit = (current: string, depth: number): boolean => {
    let entries: Dirent[]
    try {
      entries = readdirSync(current, { withFileTypes: true })
    } catch (error) {
      if (depth === 0 && (error as NodeJS.ErrnoException).code === 'ENOENT') return false
      if (depth === 0) throw new TraceFileError(dir, 'list', error)
      return true
    }
    entries = withoutLinksOut(current, entries, root)
    out.push({ dir: current, entries })
    if (depth >= MAX_DEPTH) return true
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || (depth === 0 && NOT_RUNS.has(entry.name))) continue
      visit(join(current, entry.name), depth + 1)
    }
    return true
  }
  return visit(dir, 0) ? out : null
}

function filesIn({ dir, entries }: RunFolder, suffix: string): string[] {
  return entries.filter((entry) => !entry.isDirectory() && !entry.name.startsWith('.') && entry.name.endsWith(suffix)).map((entry) => join(dir, entry.name))
}

/**
 * The run files under `dir`: its `*.trace.json` files and those of the
 * folders under it (inside vitest, runs sit in a folder per test file),
 * sorted, without dot files (temporary files of atomic writes) and without
 * `golden/`. Null when `dir` does not exist.
 */
export function listTraceFiles(dir: string): string[] | null {
  return listRunFiles(dir, TRACE_FILE_SUFFIX)
}

/** The files named `*<suffix>` where runs are kept (see `listTraceFiles`), sorted; null when `dir` does not exist. */
export function listRunFiles(dir: string, suffix: string): string[] | null {
  const folders = runFolders(dir)
  return folders === null ? null : folders.flatMap((folder) => filesIn(folder, suffix)).sort()
}

/**
 * The golden files under `goldenRoot`, by folder: inside vitest each test
 * file's goldens are in a folder of their own (`golden/test/refund.test.ts/`),
 * which is `relative` to the golden root; goldens directly in the root
 * (`relative` '') belong to no test file. Tool contracts are found alike
 * (`suffix` '.tools.json' under `contracts/`).
 */
export function goldenFolders(goldenRoot: string, suffix: string = TRACE_FILE_SUFFIX): Array<{ folder: string; relative: string; files: string[] }> {
  const out: Array<{ folder: string; relative: string; files: string[] }> = []
  const visit = (folder: string, relative: string, depth: number): void => {
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return
    }
    const files = entries.filter((e) => !e.isDirectory() && !e.name.startsWith('.') && e.name.endsWith(suffix)).map((e) => join(folder, e.name))
    if (files.length > 0) out.push({ folder, relative, files: files.sort() })
    if (depth >= MAX_DEPTH) return
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.'))
        visit(join(folder, entry.name), relative === '' ? entry.name : `${relative}/${entry.name}`, depth + 1)
    }
  }
  visit(goldenRoot, '', 0)
  return out
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

/**
 * Reads the whole trace at `path`, a file a directory scan listed (its
 * folder already swept); one that cannot be read is added to `skipped`, never thrown.
 */
export function loadTraceOrSkip(path: string, skipped: SkippedFile[]): Trace | undefined {
  try {
    return readRun(path)
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
 * Sweeps every run folder of `dir` (see recovery.ts): runs whose process died
 * are written out as interrupted traces, leftovers cleaned up. Returns what
 * each sweep found still open, and the journals it could not read.
 */
export function sweepTraceDirectory(dir: string): {
  folders: RunFolder[] | null
  openJournals: JournalFile[]
  unreadable: Array<{ path: string; error: unknown }>
} {
  const folders = runFolders(dir)
  const out = { folders, openJournals: [] as JournalFile[], unreadable: [] as Array<{ path: string; error: unknown }> }
  for (const folder of folders ?? []) {
    const swept = sweepDirectory(
      folder.dir,
      undefined,
      folder.entries.map((entry) => entry.name),
    )
    // A recovered run's trace file did not exist when the folder was listed.
    if (swept.written.length > 0) folder.entries = readdirSync(folder.dir, { withFileTypes: true })
    out.openJournals.push(...swept.openJournals)
    out.unreadable.push(...swept.unreadable)
  }
  return out
}

/**
 * Every recorded run in `dir` and the folders under it (not `golden/`), by
 * its top-level fields. The directory is swept first (see recovery.ts): a run whose
 * process died is written out as an interrupted trace. A run still being
 * recorded is listed by its journal (status "active"), in place of the
 * earlier run its file holds; so is an interrupted run that could not be
 * written out. Dot files and files not named `*.trace.json` are ignored; a
 * file that cannot be read or is not a valid trace is listed in `skipped`
 * with the reason, never thrown. Trace files are read at their two ends only.
 */
export function scanTraceDirectory(dir: string): TraceDirectory {
  const { folders, openJournals, unreadable } = sweepTraceDirectory(dir)
  if (folders === null) return { exists: false, traces: [], skipped: [] }
  const out: TraceDirectory = { exists: true, traces: [], skipped: [] }
  const replaced = new Map<string, number>()
  for (const journal of openJournals) {
    const key = resolve(journal.runPath)
    replaced.set(key, Math.max(replaced.get(key) ?? -Infinity, journal.trace.started_at))
    out.traces.push({ path: journal.path, fields: withoutTurns(journal.trace) })
  }
  for (const { path, error } of unreadable) out.skipped.push({ path, reason: unreadableReason(error) })
  for (const path of folders.flatMap((folder) => filesIn(folder, TRACE_FILE_SUFFIX))) {
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
  out.traces.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  out.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return out
}
