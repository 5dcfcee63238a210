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
import type { PrunePolicy } from './store.js'

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
