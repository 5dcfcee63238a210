import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** What the file system's error codes mean for someone who has to fix them. */
const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied: make the directory writable by this user, or choose another traceDir',
  EPERM: 'the operation is not permitted: make the directory writable by this user, or choose another traceDir',
  EROFS: 'the file system is read-only: choose a traceDir on a writable disk',
  ENOSPC: 'the disk is full: free some space (old runs in the trace directory can go), then run again',
  EDQUOT: 'the disk quota is used up: free some space, then run again',
  ENOTDIR: 'a part of the path is a file, not a directory: remove or rename that file, or choose another traceDir',
  EISDIR: 'the path is a directory, not a file: remove or rename the directory',
  ELOOP: 'the path goes through a loop of symbolic links: fix or remove the links',
  ENAMETOOLONG: 'the path is too long for the file system: choose a shorter traceDir or a shorter name',
  EMFILE: 'too many files are open in this process: close some, or raise the limit (ulimit -n)',
  ENFILE: 'too many files are open on this machine: close some, or raise the limit',
  EBUSY: 'the file is in use by another program: close it, then run again',
  EIO: 'the disk reported an input/output error: check the disk',
}

/**
 * Reading or writing a file failed in the file system: the message names
 * the path, what was being done, and what the error code means for a fix.
 */
export class TraceFileError extends ReagentError {
  override name = 'TraceFileError' as const
  readonly path: string
  /** What was being done: `write`, `read`, `list`, `remove`. */
  readonly operation: string
  /** The file system's error code (`ENOSPC`, `EACCES`, ...), when it gave one. */
  readonly code: string | undefined

  constructor(path: string, operation: string, cause: unknown) {
    const code = typeof (cause as { code?: unknown })?.code === 'string' ? (cause as { code: string }).code : undefined
    const problem = code === undefined ? undefined : FILE_PROBLEMS[code]
    const raw = cause instanceof Error ? cause.message : String(cause)
    super(`Cannot ${operation} ${path}: ${problem === undefined ? raw : `${problem} (${code})`}.`, { cause })
    this.path = path
    this.operation = operation
    this.code = code
  }
}

/**
 * True for a `TraceFileError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isTraceFileError(value: unknown): value is TraceFileError {
  return isReagentErrorNamed(value, 'TraceFileError')
}
