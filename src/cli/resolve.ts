/**
 * What `<run>` on the command line means: the path of a trace file, else a
 * trace name in the trace directory, else the trace_id of a run there (or
 * the start of one, as with git commit ids, when only one run has it).
 */
import { TraceNotFoundError, UsageError } from '../errors.js'
import { plural } from '../report/format-value.js'
import { isFile, tracePath, type TraceDirectory } from '../storage.js'
import { runsOf, scanOnce, type RunFile } from './ledger.js'

/** Shorter prefixes would match too many ids to be worth guessing. */
const MIN_ID_PREFIX = 4

function pathByName(ref: string, dir: string): string | undefined {
  try {
    return tracePath(ref, { traceDir: dir })
  } catch {
    // Nothing usable as a file name in `ref` ("..."): it can only be a path or an id.
    return undefined
  }
}

function byTraceId(ref: string, runs: readonly RunFile[]): RunFile[] {
  const exact = runs.filter((run) => run.fields.trace_id === ref)
  if (exact.length > 0 || ref.length < MIN_ID_PREFIX) return exact
  return runs.filter((run) => run.fields.trace_id.startsWith(ref))
}

/**
 * The trace file `ref` names. Throws `TraceNotFoundError`, or `UsageError`
 * when `ref` is ambiguous. The directory is scanned through `scan` only when
 * `ref` is an id: a caller that needs the scan too passes `scanOnce(dir)`.
 */
export function resolveRun(ref: string, dir: string, scan: () => TraceDirectory = scanOnce(dir)): string {
  if (isFile(ref)) return ref
  const named = pathByName(ref, dir)
  if (named !== undefined && isFile(named)) return named
  const { runs } = runsOf(scan(), dir)
  const found = byTraceId(ref, runs)
  if (found.length === 1) return found[0]!.path
  if (found.length > 1) {
    const files = `${found.slice(0, 5).map((run) => run.path).join(', ')}${found.length > 5 ? ', …' : ''}`
    throw new UsageError(
      found.every((run) => run.fields.trace_id === ref)
        ? `"${ref}" is the trace_id of ${found.length} files (${files}); pass the path of the one you mean.`
        : `"${ref}" is the start of the trace_id of ${found.length} runs (${files}); give more of the id.`,
    )
  }
  throw new TraceNotFoundError(
    named ?? ref,
    `"${ref}" is not a trace file, a trace name, or the trace_id of any of the ${plural(runs.length, 'run')} in ${dir}. ` +
      `Run "reagent-flow list --dir ${dir}" to see them.`,
    ref,
  )
}
