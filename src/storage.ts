/**
 * The one owner of the disk: where traces live, how names become file names,
 * and atomic reads and writes. Nothing else in reagent-flow calls `fs` for traces.
 *
 *   <traceDir>/<name>.trace.json          the latest recorded run of <name>
 *   <traceDir>/golden/<name>.trace.json   the golden baseline of <name>
 *
 * Contents: names and paths (sanitizeName, tracePath); writing (writeFileAtomic,
 * renderTrace, saveTrace); reading one trace (loadTrace, loadGolden); reading a
 * directory (listTraceFiles, readTraceFields, isFile, unreadableReason,
 * loadTraceOrSkip, scanTraceDirectory); the golden store (fileGoldenStore).
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ReagentError, TraceFormatError, TraceNotFoundError } from './errors.js'
import { normalizeTrace, stringifyTraceStable } from './trace/normalize.js'
import { redactForDisk, type RedactOption } from './trace/redact.js'
import { stringifyTrace } from './trace/serialize.js'
import { fieldsFromEnds, validateTraceFields, type TraceFields } from './trace/top-level.js'
import type { Trace } from './trace/types.js'
import { parseTrace } from './trace/validate.js'

export const DEFAULT_TRACE_DIR = '.reagent'
export const TRACE_FILE_SUFFIX = '.trace.json'

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

let tempCounter = 0

/**
 * Writes through a temporary file in the same directory and a rename, so a
 * reader (or a crash) never sees half a file. Returns false, touching
 * nothing, when the file already holds exactly `text`.
 */
export function writeFileAtomic(path: string, text: string, { skipIfUnchanged = false } = {}): boolean {
  if (skipIfUnchanged && readTextOrNull(path) === text) return false
  const dir = dirname(path)
  mkdirSync(dir, { recursive: true })
  tempCounter += 1
  const temp = join(dir, `.${basename(path)}.${process.pid}.${tempCounter}.tmp`)
  try {
    writeFileSync(temp, text)
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
  return true
}

/** The file's text, or null when it does not exist. */
export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

export interface SaveOptions extends TraceLocation {
  /** Secrets to remove from what is written; see `RedactOption`. Default: the built-in secret shapes. */
  redact?: RedactOption | undefined
}

/** A recorded trace in golden normal form, as an object and as the bytes its golden file would hold (made when read). */
export interface GoldenRecording {
  trace: Trace
  readonly text: string
}

/**
 * `trace` as its golden file holds it: in normal form (see
 * trace/normalize.ts) and redacted. The file's bytes are only produced when
 * read (`text`): comparing a run with its golden needs the object alone.
 */
export function renderGolden(trace: Trace, redact?: RedactOption): GoldenRecording {
  // Normalised first, so ids are renumbered before any redaction.
  const normal = redactForDisk(normalizeTrace(trace), redact)
  let text: string | undefined
  return {
    trace: normal,
    get text() {
      return (text ??= stringifyTraceStable(normal))
    },
  }
}

/** The bytes written for `trace`: redacted, and in golden normal form when `golden`. */
export function renderTrace(trace: Trace, { golden = false, redact }: Pick<SaveOptions, 'golden' | 'redact'> = {}): string {
  if (golden) return renderGolden(trace, redact).text
  return stringifyTrace(redactForDisk(trace, redact))
}

/**
 * Writes `trace` to its file (see `tracePath`) and returns the path. A golden
 * file whose bytes would not change is left alone, so its mtime stays put.
 */
export function saveTrace(trace: Trace, options: SaveOptions = {}): string {
  const path = tracePath(trace.name, options)
  writeFileAtomic(path, renderTrace(trace, options), { skipIfUnchanged: options.golden === true })
  return path
}

/** Reads and validates the trace file at `path`; a missing file is a `TraceNotFoundError` with `hint`. */
function readTraceFile(path: string, hint: string, name?: string): Trace {
  const text = readTextOrNull(path)
  if (text === null) throw new TraceNotFoundError(path, hint, name)
  return parseTrace(text, path)
}

/** Reads and validates a trace file. Throws `TraceNotFoundError` or `TraceFormatError` naming the file. */
export function loadTrace(path: string): Trace {
  return readTraceFile(path, `Check the path: a session named "x" writes <traceDir>/x${TRACE_FILE_SUFFIX} (traceDir defaults to ${DEFAULT_TRACE_DIR}).`)
}

/** Reads the golden baseline of `name`. A missing baseline is a `TraceNotFoundError` naming the path looked at. */
export function loadGolden(name: string, { traceDir = DEFAULT_TRACE_DIR }: { traceDir?: string | undefined } = {}): Trace {
  const path = tracePath(name, { traceDir, golden: true })
  return readTraceFile(
    path,
    `There is no golden baseline for "${name}" yet. Record one with session(${JSON.stringify(name)}, { golden: true }, ...) ` +
      `or run your tests with REAGENT_UPDATE=new, then commit ${path}.`,
    name,
  )
}

/**
 * The recorded traces directly in `dir`: paths of its `*.trace.json` files,
 * sorted, without dot files (temporary files of atomic writes) and without
 * `golden/`. Null when `dir` does not exist.
 */
export function listTraceFiles(dir: string): string[] | null {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  return entries
    .filter((entry) => !entry.isDirectory() && !entry.name.startsWith('.') && entry.name.endsWith(TRACE_FILE_SUFFIX))
    .map((entry) => join(dir, entry.name))
    .sort()
}

/** Files up to this size are read whole: two partial reads would not save anything. */
const WHOLE_FILE_BYTES = 16 * 1024
const HEAD_BYTES = 2 * 1024
const TAIL_BYTES = 8 * 1024
// One scratch buffer for every read of readTraceFields (it is synchronous):
// allocating one per file made listing 10,000 files mostly garbage collection.
const scratch = Buffer.allocUnsafe(WHOLE_FILE_BYTES)

/** The fields from the ends of the file's bytes, when its layout allows and they pass the schema. */
function fieldsOrUndefined(head: Buffer, tail: Buffer, path: string): TraceFields | undefined {
  const fields = fieldsFromEnds(head, tail)
  if (fields === undefined) return undefined
  try {
    return validateTraceFields(fields, path)
  } catch {
    // The ends may say something the whole file does not: the full parse decides.
    return undefined
  }
}

/**
 * The top-level fields of the trace file at `path` (all but `turns`),
 * checked against the schema; the turns are neither parsed nor checked. A
 * file in the usual layout is read at its two ends only (see
 * trace/top-level.ts); anything else is read and parsed whole.
 * Throws `TraceFormatError` naming the file, or the file system's error.
 */
export function readTraceFields(path: string): TraceFields {
  const fd = openSync(path, 'r')
  let text: string
  try {
    const headLength = readSync(fd, scratch, 0, WHOLE_FILE_BYTES, 0)
    if (headLength < WHOLE_FILE_BYTES) {
      const whole = scratch.subarray(0, headLength)
      const fields = fieldsOrUndefined(whole, whole, path)
      if (fields !== undefined) return fields
      text = whole.toString('utf8')
    } else {
      const size = fstatSync(fd).size
      const head = scratch.subarray(0, HEAD_BYTES)
      const tailLength = readSync(fd, scratch, HEAD_BYTES, TAIL_BYTES, Math.max(HEAD_BYTES, size - TAIL_BYTES))
      const fields = fieldsOrUndefined(head, scratch.subarray(HEAD_BYTES, HEAD_BYTES + tailLength), path)
      if (fields !== undefined) return fields
      text = readFileSync(fd, 'utf8')
    }
  } finally {
    closeSync(fd)
  }
  const { turns: _turns, ...rest } = parseTrace(text, path)
  return rest
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

/** A trace file known by its top-level fields (see readTraceFields). */
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
  const code = (error as NodeJS.ErrnoException).code
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

/**
 * Every recorded trace directly in `dir` (not `golden/`), in file name
 * order, by its top-level fields: read from the two ends of each file and
 * checked (see readTraceFields), the turns left unread. Dot files (temporary
 * files of atomic writes) and files not named `*.trace.json` are ignored; a
 * trace file that cannot be read or is not a valid trace is listed in
 * `skipped` with the reason, never thrown. A file can still turn out damaged
 * in its turns when it is read whole (loadTraceOrSkip).
 */
export function scanTraceDirectory(dir: string): TraceDirectory {
  const paths = listTraceFiles(dir)
  if (paths === null) return { exists: false, traces: [], skipped: [] }
  const out: TraceDirectory = { exists: true, traces: [], skipped: [] }
  for (const path of paths) {
    try {
      out.traces.push({ path, fields: readTraceFields(path) })
    } catch (error) {
      out.skipped.push({ path, reason: unreadableReason(error) })
    }
  }
  return out
}

/**
 * Where golden baselines live, and their reads and writes: the golden engine
 * (golden.ts) goes through this, never through `fs`, as vitest's snapshot
 * engine goes through its SnapshotEnvironment.
 */
export interface GoldenStore {
  /** The file of the golden baseline of trace `name`. */
  resolvePath(name: string): string
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null
  /**
   * Writes `text` atomically, without comparing it with what the file holds:
   * it is called only when `reconcile` decided the file must change.
   */
  save(path: string, text: string): void
}

/** Golden files under `<traceDir>/golden/`. */
export function fileGoldenStore(traceDir: string = DEFAULT_TRACE_DIR): GoldenStore {
  return {
    resolvePath: (name) => tracePath(name, { traceDir, golden: true }),
    read: readTextOrNull,
    save: (path, text) => void writeFileAtomic(path, text),
  }
}
