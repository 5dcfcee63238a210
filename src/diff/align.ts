/**
 * Aligns two sequences (turns, or the calls of two turns) with an LCS from
 * the `diff` package, in levels: first on identical tool calls (names and
 * arguments), then, inside each stretch the first level left unpaired, on
 * looser likeness (same tool names, ...; see strict.ts), so a call whose
 * arguments changed still lines up with its counterpart. What no level pairs
 * is reported as added or removed.
 *
 * Past MAX_EDITS differences at one level (two unrelated traces), the LCS
 * would cost O(n·d); that level is skipped, and the last one falls back to
 * pairing by position.
 */
import { diffPackage } from '../base/diff-package.js'

export interface Pair {
  /** Position in the expected sequence, or null (added). */
  expected: number | null
  /** Position in the actual sequence, or null (removed). */
  actual: number | null
  /** The level that paired them (0: identical calls), or -1 for unpaired and positional pairs. */
  level: number
}

/** One level of alignment: which items of the two sides may be paired. */
export type Level<T> = (expected: T, actual: T) => boolean

const MAX_EDITS = 1000

// Plain functions and module-level comparators: a class instance or closures
// made per diff let V8 embed objects that die at the next GC, throwing away
// its optimised code each time ("weak objects" deopts).

interface Job<T> {
  expected: readonly T[]
  actual: readonly T[]
  levels: readonly Level<T>[]
  pairs: Pair[]
}

function unpaired(pairs: Pair[], e0: number, e1: number, a0: number, a1: number): void {
  for (let e = e0; e < e1; e++) pairs.push({ expected: e, actual: null, level: -1 })
  for (let a = a0; a < a1; a++) pairs.push({ expected: null, actual: a, level: -1 })
}

function byPosition(pairs: Pair[], e0: number, e1: number, a0: number, a1: number): void {
  const both = Math.min(e1 - e0, a1 - a0)
  for (let i = 0; i < both; i++) pairs.push({ expected: e0 + i, actual: a0 + i, level: -1 })
  unpaired(pairs, e0 + both, e1, a0 + both, a1)
}

function alignRange<T>(job: Job<T>, level: number, e0: number, e1: number, a0: number, a1: number): void {
  const comparator = job.levels[level]
  if (comparator === undefined || e0 === e1 || a0 === a1) return unpaired(job.pairs, e0, e1, a0, a1)
  const runs = diffPackage().diffArrays(job.expected.slice(e0, e1), job.actual.slice(a0, a1), { comparator, maxEditLength: MAX_EDITS })
  if (runs === undefined) {
    return level + 1 < job.levels.length ? alignRange(job, level + 1, e0, e1, a0, a1) : byPosition(job.pairs, e0, e1, a0, a1)
  }
  let e = e0
  let a = a0
  let gapE = e0
  let gapA = a0
  for (const run of runs) {
    if (run.removed) e += run.count
    else if (run.added) a += run.count
    else {
      alignRange(job, level + 1, gapE, e, gapA, a)
      for (let i = 0; i < run.count; i++) job.pairs.push({ expected: e++, actual: a++, level })
      gapE = e
      gapA = a
    }
  }
  alignRange(job, level + 1, gapE, e1, gapA, a1)
}

/**
 * Pairs the items of two sequences, in order; in each stretch, unpaired items
 * come as removed, then added. `levels` should be module-level functions (see above).
 */
export function align<T>(expected: readonly T[], actual: readonly T[], levels: readonly Level<T>[]): Pair[] {
  const job: Job<T> = { expected, actual, levels, pairs: [] }
  alignRange(job, 0, 0, expected.length, 0, actual.length)
  return job.pairs
}
