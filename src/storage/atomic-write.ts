/**
 * Atomic file writes: a temporary file in the same directory, written,
 * flushed to the disk (fsync), then renamed over the target, so a reader
 * (or a crash) never sees half a file or an empty one.
 *
 * Temporary names are unique across processes and threads
 * (`.<file>.<pid>-<thread>-<random>.tmp`, created with O_EXCL), so writers of
 * one name never share a temporary file; the pid in the name lets a later
 * sweep remove the leftovers of a writer that died.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { currentThread } from '../base/node-builtins.js'
import { TraceFileError } from '../errors/index.js'

/** Bytes collected before one write to the file: large enough to keep system calls few, small enough to stay cheap. */
const CHUNK_BYTES = 1 << 20
/** UTF-8 takes at most 3 bytes per UTF-16 code unit (4 per surrogate pair). */
const MAX_BYTES_PER_CHAR = 3
/** Text encoded at a time: a longer piece is encoded a slice at a time, so no buffer of its size is made. */
const SLICE_CHARS = Math.floor(CHUNK_BYTES / MAX_BYTES_PER_CHAR)

/** Whether `code` is the first half of a surrogate pair, which must not be cut from its second half. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/**
 * The buffer a write encodes its text into, kept for the next write: text
 * joined into strings, or a buffer per write, would be garbage of the size
 * of the file, which V8 collects only in full collections of the whole heap
 * (a 1,000,000-turn trace written from a heap of 0.76 GB grew it by 0.34 GB).
 */
let spareBuffer: Buffer | undefined

/** Where a streamed write puts its text. */
export interface TextSink {
  write(text: string): void
}

const TEMP_NAME = /^\.(.+)\.(\d+)-(\d+)-[0-9a-f]{12}\.tmp$/

/** A temporary name for writing `path` that no other process or thread can be using. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${currentThread().threadId}-${randomBytes(6).toString('hex')}.tmp`)
}

/** The file and writer a temporary file belongs to, read from its name; undefined for any other name. */
export function parseTempName(name: string): { target: string; pid: number; thread: number } | undefined {
  const match = TEMP_NAME.exec(name)
  return match === null ? undefined : { target: match[1]!, pid: Number(match[2]), thread: Number(match[3]) }
}

function ensureDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
  } catch (error) {
    throw new TraceFileError(dir, 'create the directory', error)
  }
}

/**
 * Writes `path` atomically with what `produce` gives the sink, in pieces:
 * no single string of the whole file is ever built, so files of any size can
 * be written. Throws `TraceFileError` naming the path; the target is then
 * left as it was and the temporary file removed.
 */
export function writeAtomic(path: string, produce: (sink: TextSink) => void): void {
  ensureDirectory(dirname(path))
  const temp = tempPathFor(path)
  let fd: number
  try {
    fd = openSync(temp, 'wx')
  } catch (error) {
    throw new TraceFileError(path, 'write', error)
  }
  const buffer = spareBuffer ?? Buffer.allocUnsafe(CHUNK_BYTES)
  spareBuffer = undefined
  let used = 0
  const flush = (): void => {
    for (let written = 0; written < used; ) written += writeSync(fd, buffer, written, used - written)
    used = 0
  }
  try {
    produce({
      write(text) {
        for (let from = 0; from < text.length; ) {
          let to = Math.min(text.length, from + SLICE_CHARS)
          if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1
          const slice = from === 0 && to === text.length ? text : text.slice(from, to)
          if (used + slice.length * MAX_BYTES_PER_CHAR > buffer.length) flush()
          used += buffer.write(slice, used)
          from = to
        }
      },
    })
    flush()
    fsyncSync(fd)
    closeSync(fd)
    fd = -1
    renameSync(temp, path)
  } catch (error) {
    if (fd !== -1) closeSync(fd)
    rmSync(temp, { force: true })
    if (error instanceof TraceFileError || !isFileSystemError(error)) throw error
    throw new TraceFileError(path, 'write', error)
  } finally {
    spareBuffer = buffer
  }
}

function isFileSystemError(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'string' && typeof (error as { syscall?: unknown }).syscall === 'string'
}

/**
 * Writes `text` to `path` atomically. Returns false, touching nothing, when
 * `skipIfUnchanged` is set and the file already holds exactly `text`.
 */
export function writeFileAtomic(path: string, text: string, { skipIfUnchanged = false } = {}): boolean {
  if (skipIfUnchanged && readTextOrNull(path) === text) return false
  writeAtomic(path, (sink) => sink.write(text))
  return true
}

/** The file's text, or null when it does not exist. Other failures are a `TraceFileError` naming the path. */
export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new TraceFileError(path, 'read', error)
  }
}
