/**
 * Every "write or not" decision about one golden, in one commented function
 * (as vitest keeps its snapshot state's `_reconcile`), and the one
 * comparison of a golden's text with a recorded run.
 */
import { diffResolved } from '../diff/diff-traces.js'
import type { ResolvedDiffOptions } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import type { Trace } from '../trace/types.js'
import { parseTrace } from '../trace/validate.js'
import { normalizeTrace } from './normal-form.js'
import type { GoldenRecording } from './render.js'
import type { UpdateMode } from './update-mode.js'

/** What update mode `all` always decides: write the golden, unless its bytes would not change. */
export interface WriteDecision {
  action: 'write'
  written: 'created' | 'updated' | 'unchanged'
}

export type Reconciliation =
  | WriteDecision
  | { action: 'compare'; pass: boolean; expected: Trace; diff: TraceDiff }
  | { action: 'fail'; reason: 'missing' }

/** A golden file as read: its path and text. */
export interface GoldenFile {
  path: string
  text: string
}

/**
 * The golden `golden` holds, in normal form, and what differs between it and
 * `actual`, a run in golden normal form (see renderGolden): the one
 * comparison behind reconcile, assertMatchesBaseline and the CLI's diff and
 * approve. A golden that is not a valid trace is a TraceFormatError naming its file.
 */
export function compareWithGolden(golden: GoldenFile, actual: Trace, options: ResolvedDiffOptions): { expected: Trace; diff: TraceDiff } {
  const expected = normalizeTrace(parseTrace(golden.text, golden.path))
  return { expected, diff: diffResolved(expected, actual, options) }
}

/**
 * Decides what happens to the golden of one recorded trace (`golden` is
 * null when there is none yet). Every "write or not" decision is here, read
 * top to bottom:
 */
export function reconcile(recorded: GoldenRecording, golden: GoldenFile | null, mode: 'all', options: ResolvedDiffOptions): WriteDecision
export function reconcile(recorded: GoldenRecording, golden: GoldenFile | null, mode: UpdateMode, options: ResolvedDiffOptions): Reconciliation
export function reconcile(recorded: GoldenRecording, golden: GoldenFile | null, mode: UpdateMode, options: ResolvedDiffOptions): Reconciliation {
  // 1. No golden yet: record one, except where goldens are never written (CI),
  //    since a golden first written by CI would pass without anyone reviewing it.
  if (golden === null) return mode === 'none' ? { action: 'fail', reason: 'missing' } : { action: 'write', written: 'created' }
  // 2. `all` takes the recorded behaviour as the new truth. Identical bytes
  //    are left alone, so re-recording the same behaviour changes no file.
  if (mode === 'all') return { action: 'write', written: golden.text === recorded.text ? 'unchanged' : 'updated' }
  // 3. `new` and `none` never touch an existing golden: compare behaviour,
  //    both sides in normal form, under the diff options.
  const { expected, diff } = compareWithGolden(golden, recorded.trace, options)
  return { action: 'compare', pass: diff.equal, expected, diff }
}

