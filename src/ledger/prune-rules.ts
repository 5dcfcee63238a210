/**
 * Which runs a prune keeps, the same on both stores (decision 084). A run
 * that started before the cut-off is removed unless one of these keeps it,
 * counted under the first that does:
 *
 * - `active`: a run still being recorded is never removed;
 * - `last`: the newest N runs of each agent (N at least 1, whatever the
 *   policy says), so an agent never vanishes from the ledger;
 * - `baseline`: a run of a test that a branch's latest results ran, at their
 *   commit (results files name tests and commits, not run ids: a run is
 *   matched by the `git_commit`, `test_file` and `test_name` the session
 *   reporter puts in its metadata);
 * - `failed` (with `keepFailed`): a run that ended failed or was graded fail.
 */
import type { RunResults } from '../results/types.js'
import type { RunRecord } from './run-row.js'
import type { PruneOutcome, PrunePolicy } from './store.js'

export type KeptReason = keyof PruneOutcome['kept']

/** The newest runs kept per agent: the policy's count, never less than 1. */
export function lastPerAgent(policy: PrunePolicy): number {
  return Math.max(1, Math.floor(policy.keepLastPerAgent))
}

const testKey = (commit: string, file: string, name: string): string => `${commit}\u0000${file}\u0000${name}`

/**
 * The tests that the latest results of each branch ran (its newest results
 * file by started_at, with the other shards of the same commit), as keys of
 * `isBaselineRun`. Results without a commit reference no run.
 */
export function baselineTests(results: Iterable<RunResults>): Set<string> {
  const all = [...results]
  const newest = new Map<string | null, RunResults>()
  for (const file of all) {
    const held = newest.get(file.branch)
    if (held === undefined || file.started_at > held.started_at) newest.set(file.branch, file)
  }
  const keys = new Set<string>()
  for (const file of all) {
    const latest = newest.get(file.branch)
    if (file.commit === null || latest?.commit !== file.commit) continue
    for (const test of file.tests) keys.add(testKey(file.commit, test.file, test.name))
  }
  return keys
}

/** Whether `run` is a run of a test in `tests` (see baselineTests), at its commit. */
export function isBaselineRun(run: Pick<RunRecord, 'metadata'>, tests: ReadonlySet<string>): boolean {
  const { git_commit: commit, test_file: file, test_name: name } = run.metadata
  return typeof commit === 'string' && typeof file === 'string' && typeof name === 'string' && tests.has(testKey(commit, file, name))
}

export const isFailedRun = (run: Pick<RunRecord, 'status' | 'grade'>): boolean => run.status === 'failed' || run.grade === 'fail'

/** Why a candidate (a run that started before the cut-off) is kept, or undefined when it goes; `isLast`: among its agent's newest. */
export function keptReason(
  run: Pick<RunRecord, 'status' | 'grade' | 'metadata'>,
  isLast: boolean,
  policy: PrunePolicy,
  baseline: ReadonlySet<string>,
): KeptReason | undefined {
  if (run.status === 'active') return 'active'
  if (isLast) return 'last'
  if (isBaselineRun(run, baseline)) return 'baseline'
  if (policy.keepFailed && isFailedRun(run)) return 'failed'
  return undefined
}

/** Newest first: started_at, then run_id (byte order), as run.list's started_desc. */
const newestFirst = (a: RunRecord, b: RunRecord): number => b.started_at - a.started_at || (a.run_id < b.run_id ? 1 : a.run_id > b.run_id ? -1 : 0)

/** The run ids among each agent's `count` newest runs of `runs`. */
export function newestOfEachAgent(runs: Iterable<RunRecord>, count: number): Set<string> {
  const byAgent = new Map<string, RunRecord[]>()
  for (const run of runs) {
    const list = byAgent.get(run.agent)
    if (list === undefined) byAgent.set(run.agent, [run])
    else list.push(run)
  }
  const ids = new Set<string>()
  for (const list of byAgent.values()) for (const run of list.sort(newestFirst).slice(0, count)) ids.add(run.run_id)
  return ids
}

/** The runs of `runs` (every run of the scope) that a prune removes, and the count of candidates kept by each rule. */
export function selectPrune(
  runs: readonly RunRecord[],
  policy: PrunePolicy,
  baseline: ReadonlySet<string>,
): { remove: RunRecord[]; kept: PruneOutcome['kept'] } {
  const last = newestOfEachAgent(runs, lastPerAgent(policy))
  const kept = { failed: 0, last: 0, baseline: 0, active: 0 }
  const remove: RunRecord[] = []
  for (const run of runs) {
    if (run.started_at >= policy.before) continue
    const reason = keptReason(run, last.has(run.run_id), policy, baseline)
    if (reason === undefined) remove.push(run)
    else kept[reason] += 1
  }
  return { remove, kept }
}
