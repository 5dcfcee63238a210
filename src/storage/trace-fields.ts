/**
 * The top-level fields of a trace file (all but `turns`), read from its two
 * ends when its layout allows (see trace/top-level.ts), so that a directory
 * of 10,000 traces is listed without parsing every turn of every file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { TraceFileError } from '../errors/index.js'
import { fieldsFromEnds, validateTraceFields, type TraceFields } from '../trace/top-level.js'
import { readTraceFile } from './trace-reader.js'

/** Files up to this size are read whole: two partial reads would not save anything. */
const WHOLE_FILE_BYTES = 16 * 1024
const HEAD_BYTES = 2 * 1024
const TAIL_BYTES = 8 * 1024
// One scratch buffer for every read (reading is synchronous): allocating one
// per file made listing 10,000 files mostly garbage collection.
const scratch = Buffer.allocUnsafe(WHOLE_FILE_BYTES)

/** Fields read from a file's ends, when they pass the schema (else the full parse decides). */
function checkedFields(fields: Record<string, unknown>, path: string): TraceFields | undefined {
  try {
    return validateTraceFields(fields, path)
  } catch {
    // The ends may say something the whole file does not: the full parse decides.
    return undefined
  }
}

/** What `take` makes of the fields from the file's two ends; undefined when its layout does not allow reading them so. */
function fieldsFromFileEnds<T>(path: string, take: (fields: Record<string, unknown>, path: string) => T | undefined): T | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    throw new TraceFileError(path, 'read', error)
  }
  try {
    const headLength = readSync(fd, scratch, 0, WHOLE_FILE_BYTES, 0)
    let fields: Record<string, unknown> | undefined
    if (headLength < WHOLE_FILE_BYTES) {
      const whole = scratch.subarray(0, headLength)
      fields = fieldsFromEnds(whole, whole)
    } else {
      const size = fstatSync(fd).size
      const head = scratch.subarray(0, HEAD_BYTES)
      const tailLength = readSync(fd, scratch, HEAD_BYTES, TAIL_BYTES, Math.max(HEAD_BYTES, size - TAIL_BYTES))
      fields = fieldsFromEnds(head, scratch.subarray(HEAD_BYTES, HEAD_BYTES + tailLength))
    }
    return fields === undefined ? undefined : take(fields, path)
  } catch (error) {
    throw new TraceFileError(path, 'read', error)
  } finally {
    closeSync(fd)
  }
}

/**
 * The top-level fields of the trace file at `path` (all but `turns`),
 * checked against the schema; the turns are neither parsed nor checked. A
 * file in the usual layout is read at its two ends only; anything else is
 * read and parsed whole. Throws `TraceFormatError` naming the file, or
 * `TraceFileError` for a file-system failure.
 */
export function readTraceFields(path: string): TraceFields {
  const fields = fieldsFromFileEnds(path, checkedFields)
  if (fields !== undefined) return fields
  const { turns: _turns, ...rest } = readTraceFile(path, 'The file disappeared while it was read.')
  return rest
}

/** The fields of the trace file at `path`, or undefined when there is none or it is not a readable trace. */
export function readTraceFieldsOrUndefined(path: string): TraceFields | undefined {
  try {
    return readTraceFields(path)
  } catch {
    return undefined
  }
}

/**
 * The top-level fields of the trace file at `path` as its two ends give
 * them, NOT checked against the schema (compiling it costs tens of
 * milliseconds in a process that has not): null when there is no file,
 * undefined when its layout does not allow reading them so or it cannot be
 * read. For a quick look that `readTraceFields` confirms where it matters.
 */
export function peekTraceFields(path: string): Record<string, unknown> | null | undefined {
  try {
    return fieldsFromFileEnds(path, (fields) => fields)
  } catch (error) {
    return error instanceof TraceFileError && error.code === 'ENOENT' ? null : undefined
  }
}
