/**
 * Where traces live and how names become file names.
 *
 *   <traceDir>/<name>.trace.json                    the latest recorded run of <name>
 *   <traceDir>/<name>.<trace_id>.journal.jsonl      a run being recorded (or one that never closed)
 *   <traceDir>/<name>.recording.json                the model calls (and tool results) a run recorded, to replay
 *   <traceDir>/golden/<name>.trace.json             the golden baseline of <name>
 *   <traceDir>/contracts/<name>.tools.json          the tool contract of <name> (the tools it offers the model)
 *
 * Inside vitest, runs and goldens belong to their test file, as snapshots do:
 *
 *   <traceDir>/<test file>/<key>.trace.json          <key>: the test's full name, ` > <session>` when the
 *   <traceDir>/golden/<test file>/<key>.trace.json   session is not named after its test
 *
 * A name becomes a file name (its stem) the way reagent-flow 0.5 does it
 * (sanitizeName), after Unicode NFC and redaction (a secret in a name never
 * becomes a file name). Stems are kept short enough for every file we write
 * beside them (journals, temporary files): a longer one is cut and given a
 * hash of the whole name. Two names that meet on one stem are told apart by
 * the files' own names (see storage/naming.ts), the second taking the hashed stem.
 */
import { createHash } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { ReagentError } from '../errors/index.js'
import { redactForDisk } from '../redact/index.js'

export const DEFAULT_TRACE_DIR = '.reagent'
export const TRACE_FILE_SUFFIX = '.trace.json'
export const JOURNAL_SUFFIX = '.journal.jsonl'
export const RECORDING_SUFFIX = '.recording.json'
export const CONTRACT_FILE_SUFFIX = '.tools.json'

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
      `The trace name ${JSON.stringify(name)} has no character usable in a file name. Name the session with letters, digits, "-", "_" or ".".`,
    )
  }
  return safe
}

/** Bytes of a stem, at most: 255 (a file name) minus what journals and temporary files add around it. */
const MAX_STEM_BYTES = 150

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8)
}

/** The name a file is named after: NFC, without secrets. */
export function fileIdentity(key: string): string {
  const redacted = redactForDisk(String(key).normalize('NFC'), undefined)
  return typeof redacted === 'string' ? redacted : String(key)
}

/**
 * The stem of the file of `key` (a trace name, or a test key): sanitised as
 * reagent-flow 0.5 does it, cut to MAX_STEM_BYTES with `~<hash>` of the
 * whole name when longer, and always given the hash when `hashed` (for a
 * name whose plain stem another name holds).
 */
export function fileStem(key: string, { hashed = false } = {}): string {
  const identity = fileIdentity(key)
  const stem = sanitizeName(identity)
  if (!hashed && Buffer.byteLength(stem) <= MAX_STEM_BYTES) return stem
  let cut = stem
  while (Buffer.byteLength(cut) > MAX_STEM_BYTES - 9) cut = cut.slice(0, -1)
  return `${cut.replace(/[._]+$/, '')}~${hashOf(identity)}`
}

/** A test file path (relative to the vitest root, `/` separators) as directories inside traceDir. */
function testFileSegments(testFile: string): string[] {
  return testFile
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .map((part) => (part === '..' ? '_up' : part.replace(/[^\p{L}\p{N}_.-]/gu, '_')))
}

/** What a trace file is named after: a trace name, or inside vitest the test file and key. */
export interface TraceIdentity {
  name: string
  test_file?: string | null | undefined
  test_key?: string | null | undefined
}

/** The key a trace is filed under: its test key inside vitest, else its name. */
export function fileKeyOf(identity: TraceIdentity): string {
  return typeof identity.test_key === 'string' && identity.test_key !== '' ? identity.test_key : identity.name
}

/**
 * The file of a trace known by its identity: `<traceDir>[/golden][/<test file>]/<stem>.trace.json`
 * (the hashed stem when `hashed`; see storage/naming.ts for when).
 */
export function traceFilePath(
  identity: TraceIdentity,
  { traceDir = DEFAULT_TRACE_DIR, golden = false, hashed = false }: TraceLocation & { hashed?: boolean } = {},
): string {
  const dir = golden ? join(traceDir, 'golden') : traceDir
  const scoped = typeof identity.test_file === 'string' && identity.test_file !== '' ? join(dir, ...testFileSegments(identity.test_file)) : dir
  return join(scoped, `${fileStem(fileKeyOf(identity), { hashed })}${TRACE_FILE_SUFFIX}`)
}

/** The tool contract of a trace known by its identity: `<traceDir>/contracts[/<test file>]/<stem>.tools.json`, placed as its golden is. */
export function contractFilePath(identity: TraceIdentity, traceDir: string = DEFAULT_TRACE_DIR): string {
  const dir = join(traceDir, 'contracts')
  const scoped = typeof identity.test_file === 'string' && identity.test_file !== '' ? join(dir, ...testFileSegments(identity.test_file)) : dir
  return join(scoped, `${fileStem(fileKeyOf(identity))}${CONTRACT_FILE_SUFFIX}`)
}

export interface TraceLocation {
  /** Directory of traces. Default: `.reagent` (relative to the working directory). */
  traceDir?: string | undefined
  /** The golden baseline instead of the latest run. */
  golden?: boolean | undefined
}

/** The file of trace `name` outside vitest: `<traceDir>/<name>.trace.json` or `<traceDir>/golden/<name>.trace.json`. */
export function tracePath(name: string, location: TraceLocation = {}): string {
  return traceFilePath({ name }, location)
}

/** The journal of run `traceId`, beside the run file it becomes: `<dir>/<name>.<trace_id>.journal.jsonl`. */
export function journalPath(runPath: string, traceId: string): string {
  const base = basename(runPath)
  const stem = base.endsWith(TRACE_FILE_SUFFIX) ? base.slice(0, -TRACE_FILE_SUFFIX.length) : base
  return join(dirname(runPath), `${stem}.${traceId}${JOURNAL_SUFFIX}`)
}

/** The recording of the runs of `runPath`, beside it: `<dir>/<name>.recording.json`. */
export function recordingPath(runPath: string): string {
  const base = basename(runPath)
  const stem = base.endsWith(TRACE_FILE_SUFFIX) ? base.slice(0, -TRACE_FILE_SUFFIX.length) : base
  return join(dirname(runPath), `${stem}${RECORDING_SUFFIX}`)
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
