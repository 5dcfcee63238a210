/**
 * What `<run>` on the command line means, tried in this order:
 *
 * 1. the path of a trace file (or a journal);
 * 2. a trace name in the trace directory (`<dir>/<name>.trace.json`);
 * 3. a run's full name: inside vitest its test key (`support agent > refunds
 *    order 42`, `... > billing` for a session of its own in the test), else
 *    its trace name; or its session name (`billing`);
 * 4. the trace_id of a run (or the start of one, as with git commit ids);
 * 5. the end of a run's full name, from a word on (`refunds order 42`).
 *
 * A reference that fits several runs is an `AmbiguousRunError` listing
 * them; one that fits none is a `TraceNotFoundError` suggesting the closest names.
 */
import { TraceNotFoundError } from '../errors/index.js'
import { plural } from '../report/format-value.js'
import { shellCommand } from '../report/shell.js'
import { isFile, resolveTraceFile, type TraceDirectory } from '../storage/index.js'
import { AmbiguousRunError } from './ambiguous-run-error.js'
import { closestNames } from './closest-names.js'
import { runsOf, scanOnce, type RunFile } from './ledger.js'
import { fullNameOf as fullName } from './run-facts.js'

/** Shorter prefixes would match too many ids to be worth guessing. */
const MIN_ID_PREFIX = 4

const BY_FILE_OR_ID = 'Pass the file or the trace_id of the one you mean.'

function pathByName(ref: string, dir: string): string | undefined {
  try {
    return resolveTraceFile({ name: ref }, { traceDir: dir })
  } catch {
    // Nothing usable as a file name in `ref` ("..."): it can only be a path or an id.
    return undefined
  }
}

const fullNameOf = (run: RunFile): string => fullName(run.fields)

function byTraceId(ref: string, runs: readonly RunFile[]): RunFile[] {
  const exact = runs.filter((run) => run.fields.trace_id === ref)
  if (exact.length > 0 || ref.length < MIN_ID_PREFIX) return exact
  return runs.filter((run) => run.fields.trace_id.startsWith(ref))
}

/** Runs whose full name is `ref`, else whose trace (session) name is. */
function byName(ref: string, runs: readonly RunFile[]): RunFile[] {
  const full = runs.filter((run) => fullNameOf(run) === ref)
  return full.length > 0 ? full : runs.filter((run) => run.fields.name === ref)
}

/** Runs whose full name ends with `ref`, from a word on: `order 42` ends `refunds order 42`, `der 42` does not. */
function bySuffix(ref: string, runs: readonly RunFile[]): RunFile[] {
  if (ref.trim() === '') return []
  return runs.filter((run) => {
    const name = fullNameOf(run)
    return name.length > ref.length && name.endsWith(ref) && /\s/.test(name[name.length - ref.length - 1]!)
  })
}

function ambiguous(ref: string, how: string, found: readonly RunFile[], pick: string): AmbiguousRunError {
  const candidates = [...found].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((run) => ({ name: fullNameOf(run), file: run.path }))
  return new AmbiguousRunError(ref, how, candidates, pick)
}

function notFound(ref: string, named: string | undefined, runs: readonly RunFile[], dir: string): TraceNotFoundError {
  const closest = closestNames(ref, runs.map(fullNameOf))
  const suggestion = closest.length === 0 ? '' : `The closest: ${closest.map((name) => `"${name}"`).join(', ')}. `
  return new TraceNotFoundError(
    named ?? ref,
    `"${ref}" is not a trace file, nor the name (or the end of the name), session name or trace_id of any of the ${plural(runs.length, 'run')} in ${dir}. ` +
      `${suggestion}Run "${shellCommand(['reagent-flow', 'list', '--dir', dir])}" to see them.`,
    ref,
  )
}

/**
 * The trace file `ref` names. Throws `TraceNotFoundError`, or
 * `AmbiguousRunError` when `ref` fits several runs. The directory is scanned
 * through `scan` only when `ref` is not a file: a caller that needs the scan
 * too passes `scanOnce(dir)`.
 */
export function resolveRun(ref: string, dir: string, scan: () => TraceDirectory = scanOnce(dir)): string {
  if (isFile(ref)) return ref
  const named = pathByName(ref, dir)
  if (named !== undefined && isFile(named)) return named
  const { runs } = runsOf(scan(), dir)
  const byNames = byName(ref, runs)
  if (byNames.length === 1) return byNames[0]!.path
  if (byNames.length > 1) throw ambiguous(ref, 'names', byNames, BY_FILE_OR_ID)
  const found = byTraceId(ref, runs)
  if (found.length === 1) return found[0]!.path
  if (found.length > 1) {
    if (found.every((run) => run.fields.trace_id === ref)) throw ambiguous(ref, 'is the trace_id of', found, 'Pass the file of the one you mean.')
    throw ambiguous(ref, 'starts the trace_id of', found, 'Give more of the id.')
  }
  const ending = bySuffix(ref, runs)
  if (ending.length === 1) return ending[0]!.path
  if (ending.length > 1)
    throw ambiguous(ref, 'ends the names of', ending, `Pass more of the name (the whole of it, in quotes), the file or the trace_id of the one you mean.`)
  throw notFound(ref, named, runs, dir)
}
