/**
 * What `<run>` on the command line means: the path of a trace file (or a
 * journal), else a trace name in the trace directory (a run named so, or
 * inside vitest a test key: `refund agent > refunds order 42`), else the
 * trace_id of a run there (or the start of one, as with git commit ids, when
 * only one run has it).
 */
import { TraceNotFoundError, UsageError } from '../errors.js'
import { plural } from '../report/format-value.js'
import { shellCommand } from '../report/shell.js'
import { isFile, resolveTraceFile, type TraceDirectory } from '../storage.js'
import { runsOf, scanOnce, type RunFile } from './ledger.js'

/** Shorter prefixes would match too many ids to be worth guessing. */
const MIN_ID_PREFIX = 4

function pathByName(ref: string, dir: string): string | undefined {
  try {
    return resolveTraceFile({ name: ref }, { traceDir: dir })
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

/** Runs filed under `ref` in a test file: their test key, or their name. */
function byTestKey(ref: string, runs: readonly RunFile[]): RunFile[] {
  const keyed = runs.filter((run) => (run.fields as { test_key?: unknown }).test_key === ref)
  return keyed.length > 0 ? keyed : runs.filter((run) => run.fields.name === ref)
}

function listed(found: readonly RunFile[]): string {
  return `${found
    .slice(0, 5)
    .map((run) => run.path)
    .join(', ')}${found.length > 5 ? ', …' : ''}`
}

/**
 * The trace file `ref` names. Throws `TraceNotFoundError`, or `UsageError`
 * when `ref` is ambiguous. The directory is scanned through `scan` only when
 * `ref` is not a file: a caller that needs the scan too passes `scanOnce(dir)`.
 */
export function resolveRun(ref: string, dir: string, scan: () => TraceDirectory = scanOnce(dir)): string {
  if (isFile(ref)) return ref
  const named = pathByName(ref, dir)
  if (named !== undefined && isFile(named)) return named
  const { runs } = runsOf(scan(), dir)
  const keyed = byTestKey(ref, runs)
  if (keyed.length === 1) return keyed[0]!.path
  if (keyed.length > 1)
    throw new UsageError(`"${ref}" names ${keyed.length} runs in different test files (${listed(keyed)}); pass the path of the one you mean.`)
  const found = byTraceId(ref, runs)
  if (found.length === 1) return found[0]!.path
  if (found.length > 1) {
    throw new UsageError(
      found.every((run) => run.fields.trace_id === ref)
        ? `"${ref}" is the trace_id of ${found.length} files (${listed(found)}); pass the path of the one you mean.`
        : `"${ref}" is the start of the trace_id of ${found.length} runs (${listed(found)}); give more of the id.`,
    )
  }
  throw new TraceNotFoundError(
    named ?? ref,
    `"${ref}" is not a trace file, a trace name, a test's run name, or the trace_id of any of the ${plural(runs.length, 'run')} in ${dir}. ` +
      `Run "${shellCommand(['reagent-flow', 'list', '--dir', dir])}" to see them.`,
    ref,
  )
}
