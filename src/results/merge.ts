/**
 * The results of the shards of one `vitest --shard` build, merged into one:
 * every test once, by file, as an unsharded run of the same commit writes
 * them. A file that does not belong with the others is refused, naming it
 * and what to do: not a shard, a shard of another split or commit, a shard
 * given twice. Shards missing from the set are allowed (a job that died
 * still leaves the others' results) and reported by the caller.
 */
import { ResultsFileError } from '../errors/index.js'
import type { RunResults, ShardOfRun } from './types.js'

export interface ResultsOfFile {
  file: string
  results: RunResults
}

export interface MergedResults {
  merged: RunResults
  /** The shards of the split that were not given, in order. */
  missing: ShardOfRun[]
}

function shardText(shard: ShardOfRun): string {
  return `${shard.index}/${shard.count}`
}

function commitText(commit: string | null): string {
  return commit === null ? 'an unknown commit' : `commit ${commit}`
}

/** Refuses `input` when it does not belong with `first` and the shards already taken (by index). */
function checkShard(input: ResultsOfFile, first: ResultsOfFile, taken: ReadonlyMap<number, string>): ShardOfRun {
  const { file, results } = input
  const shard = results.shard
  if (shard === null) {
    throw new ResultsFileError(
      file,
      'is not the results of a shard (vitest ran without --shard)',
      'Merge the results of vitest --shard <i>/<n> jobs; a run without --shard already has all its tests',
    )
  }
  const firstShard = first.results.shard!
  if (shard.count !== firstShard.count) {
    throw new ResultsFileError(
      file,
      `is shard ${shardText(shard)}, but ${first.file} is shard ${shardText(firstShard)}`,
      'Merge the shards of one split (one --shard count)',
    )
  }
  if (results.commit !== first.results.commit) {
    throw new ResultsFileError(
      file,
      `was recorded at ${commitText(results.commit)}, but ${first.file} at ${commitText(first.results.commit)}`,
      "Merge the shards of one commit: the results of this build's jobs only",
    )
  }
  const other = taken.get(shard.index)
  if (other !== undefined) throw new ResultsFileError(file, `is shard ${shardText(shard)} again (so is ${other})`, "Pass each shard's results once")
  return shard
}

function byFile(a: { file: string }, b: { file: string }): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0
}

/** Merges the results of `inputs` (at least one), each a shard of one split of one commit. */
export function mergeResults(inputs: readonly ResultsOfFile[]): MergedResults {
  const first = inputs[0]
  if (first === undefined) throw new TypeError('mergeResults() needs at least one results file.')
  const taken = new Map<number, string>()
  const shards: ShardOfRun[] = []
  for (const input of inputs) {
    const shard = checkShard(input, first, taken)
    taken.set(shard.index, input.file)
    shards.push(shard)
  }
  shards.sort((a, b) => a.index - b.index)
  const count = shards[0]!.count
  const missing = Array.from({ length: count }, (_, i) => ({ index: i + 1, count })).filter((shard) => !taken.has(shard.index))
  const all = inputs.map((input) => input.results)
  const merged: RunResults = {
    results_version: first.results.results_version,
    reagent_flow_version: first.results.reagent_flow_version,
    shard: null,
    merged_shards: shards,
    started_at: Math.min(...all.map((results) => results.started_at)),
    ended_at: Math.max(...all.map((results) => results.ended_at)),
    commit: first.results.commit,
    branch: first.results.branch,
    // Each test file runs in one shard: sorted by file (stable), the tests of a file keep their order.
    tests: all.flatMap((results) => results.tests).sort(byFile),
  }
  return { merged, missing }
}
