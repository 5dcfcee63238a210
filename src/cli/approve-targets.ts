/**
 * Which runs `reagent-flow approve --all` approves, each decided once:
 *
 * - only runs that asked for a golden (their trace says `golden: true`:
 *   `golden: true`, `toMatchGolden()`, `assertMatchesBaseline()`), and runs
 *   that have a golden already; never a golden for a run that asked for none;
 * - a run set (`repeat()`) as the run set decides its golden: its runs share
 *   one, which its first run to complete writes (checks run in order), so
 *   its lowest-numbered completed run stands for the set, once, whatever
 *   order the files are read in; runs of an earlier run of the set (files
 *   left from a larger set) are left out;
 * - never a run that did not finish (active, cancelled, interrupted).
 */
import { isFile, type TraceIdentity } from '../storage/index.js'
import { repeatOf, type RepeatField } from '../trace/repeat-field.js'
import { statusOf } from '../trace/facts.js'
import type { TraceStatus } from '../trace/types.js'
import type { RunFile, UnreadableFile } from './ledger.js'
import { fullNameOf } from './run-facts.js'

/** Runs that did not finish hold part of a behaviour: --all never promotes them. */
const UNFINISHED: ReadonlySet<TraceStatus> = new Set(['active', 'cancelled', 'interrupted'])

/** Why --all left a finished run out. */
export type SkipReason = 'no_golden_asked' | 'earlier_run_set' | 'no_completed_run'

export interface SkippedRun {
  file: string
  name: string
  reason: SkipReason
}

/** The run set a run stands for: which of its runs it is, and how many of them are in the directory. */
export interface RunSetChoice {
  id: string
  name: string
  run: number
  runs: number
}

export interface AllTargets {
  /** The runs to approve, in directory order, each with the run set it stands for. */
  runs: Array<{ file: string; runSet: RunSetChoice | null }>
  unfinished: Array<{ file: string; status: TraceStatus; reason: string | null }>
  skipped: SkippedRun[]
  unreadable: UnreadableFile[]
}

/** Where a run's golden is: the path the golden engine's store gives it (a run set's is shared). */
export type GoldenPathOf = (identity: TraceIdentity) => string

const askedForGolden = (run: RunFile): boolean => (run.fields as { golden?: unknown }).golden === true
const skip = (run: RunFile, reason: SkipReason): SkippedRun => ({ file: run.path, name: fullNameOf(run.fields), reason })

/** One golden's run sets: the latest (ULIDs sort by time) stands for them; its first completed run is approved. */
function chooseRunSet(members: ReadonlyArray<{ run: RunFile; field: RepeatField }>, hasGolden: boolean, out: AllTargets): void {
  const latest = members
    .map((member) => member.field.id)
    .sort()
    .at(-1) as string
  const current = members.filter((member) => member.field.id === latest)
  for (const member of members) if (member.field.id !== latest) out.skipped.push(skip(member.run, 'earlier_run_set'))
  if (!hasGolden && !current.some((member) => askedForGolden(member.run))) {
    for (const member of current) out.skipped.push(skip(member.run, 'no_golden_asked'))
    return
  }
  const completed = current.filter((member) => statusOf(member.run.fields) === 'completed').sort((a, b) => a.field.index - b.field.index)
  const first = completed[0]
  if (first === undefined) {
    for (const member of current) out.skipped.push(skip(member.run, 'no_completed_run'))
    return
  }
  out.runs.push({ file: first.run.path, runSet: { id: latest, name: first.field.name, run: first.field.index, runs: current.length } })
}

/** The runs of a scanned directory that `approve --all` approves, and those it leaves out, with why. */
export function allTargets(runs: readonly RunFile[], unreadable: readonly UnreadableFile[], goldenPathOf: GoldenPathOf): AllTargets {
  const out: AllTargets = { runs: [], unfinished: [], skipped: [], unreadable: [...unreadable] }
  const runSets = new Map<string, Array<{ run: RunFile; field: RepeatField }>>()
  for (const run of runs) {
    const status = statusOf(run.fields)
    if (UNFINISHED.has(status)) {
      out.unfinished.push({ file: run.path, status, reason: run.fields.interruption_reason ?? null })
      continue
    }
    const field = repeatOf(run.fields)
    const golden = goldenPathOf(run.fields)
    if (field !== undefined) {
      const members = runSets.get(golden)
      if (members === undefined) runSets.set(golden, [{ run, field }])
      else members.push({ run, field })
    } else if (askedForGolden(run) || isFile(golden)) out.runs.push({ file: run.path, runSet: null })
    else out.skipped.push(skip(run, 'no_golden_asked'))
  }
  for (const [golden, members] of runSets) chooseRunSet(members, isFile(golden), out)
  const byFile = (a: { file: string }, b: { file: string }): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)
  out.runs.sort(byFile)
  out.skipped.sort(byFile)
  return out
}
