/**
 * Golden baselines, modelled on vitest's snapshot engine:
 *
 *   resolveUpdateMode()  the update mode, worked out once (flag, REAGENT_UPDATE, CI)
 *   compareWithGolden()  a golden file's text against a recorded run, both in normal form
 *   reconcile()          every "write or not" decision, in one place
 *   matchGolden()        what a test calls: reconcile, then carry the decision out
 *
 * The disk is reached only through a GoldenStore (storage.ts).
 */
import { diffResolved } from './diff/diff-traces.js'
import { formatDiff } from './diff/format.js'
import { resolveDiffOptions, type ResolvedDiffOptions } from './diff/options.js'
import type { DiffOptions, TraceDiff } from './diff/types.js'
import { fileGoldenStore, renderGolden, type GoldenRecording, type GoldenStore } from './storage.js'
import { normalizeTrace } from './trace/normalize.js'
import type { RedactOption } from './trace/redact.js'
import type { Trace } from './trace/types.js'
import { parseTrace } from './trace/validate.js'

/**
 * - `all`: write every golden (new ones, and existing ones whose content changed);
 * - `new`: write missing goldens only, compare the others (the local default);
 * - `none`: never write; a missing golden fails (the default when `CI` is set).
 */
export type UpdateMode = 'all' | 'new' | 'none'
export const UPDATE_MODES: readonly UpdateMode[] = ['all', 'new', 'none']

export interface UpdateModeSources {
  /** The test runner's own update state (vitest's `-u` gives `'all'`); only `'all'` (or `true`) counts as an explicit request. */
  vitestUpdate?: UpdateMode | boolean | undefined
  /** Where `REAGENT_UPDATE` and `CI` are read. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
}

function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI?.trim().toLowerCase()
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0'
}

/**
 * The update mode, in order of precedence: the test runner's explicit update
 * flag (`vitest -u`), then `REAGENT_UPDATE=all|new|none` (empty counts as
 * unset; anything else is a TypeError), then `CI` (set and not `false`/`0`:
 * `none`), else `new`.
 */
export function resolveUpdateMode({ vitestUpdate, env = process.env }: UpdateModeSources = {}): UpdateMode {
  if (vitestUpdate === 'all' || vitestUpdate === true) return 'all'
  const requested = env.REAGENT_UPDATE
  if (requested !== undefined && requested !== '') {
    if ((UPDATE_MODES as readonly string[]).includes(requested)) return requested as UpdateMode
    throw new TypeError(`REAGENT_UPDATE=${JSON.stringify(requested)} is not an update mode. Use one of: all (rewrite goldens), new (write missing ones), none (never write).`)
  }
  return isCi(env) ? 'none' : 'new'
}

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

export interface MatchGoldenOptions extends DiffOptions {
  /** Directory of traces; goldens are in `<traceDir>/golden/`. Default: `".reagent"`. */
  traceDir?: string | undefined
  /** The update mode. Default: `resolveUpdateMode()` (REAGENT_UPDATE, then CI). @example { update: 'all' } */
  update?: UpdateMode | undefined
  /** Secrets removed from the golden, as when it is written. Default: the built-in secret shapes. */
  redact?: RedactOption | undefined
  /** Where goldens are read and written. Default: files under `<traceDir>/golden/`. */
  store?: GoldenStore | undefined
}

export interface MatchGoldenResult {
  pass: boolean
  /** What was written: a new golden, a rewritten one, one left as it was (mode `all`), or nothing (null). */
  written: 'created' | 'updated' | 'unchanged' | null
  path: string
  update: UpdateMode
  /** The comparison with the existing golden; null when none was made. */
  diff: TraceDiff | null
  /** The recorded trace in golden normal form. */
  actual: Trace
  /** The golden in normal form, when it was compared. */
  expected: Trace | null
  message: string
}

const GOLDEN_OPTIONS = ['traceDir', 'update', 'redact', 'store']

/** The message of a failed comparison: a header line naming the trace and the file, then the diff. */
export function mismatchMessage(name: string, path: string, diff: TraceDiff): string {
  return `Trace "${name}" does not match its golden baseline (${path}):\n${formatDiff(diff, { color: false })}`
}

function messageOf(name: string, path: string, outcome: Reconciliation): string {
  switch (outcome.action) {
    case 'fail':
      return (
        `No golden baseline for "${name}" at ${path}, and goldens are not written when the update mode is "none" ` +
        `(the default when CI is set). Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${path}.`
      )
    case 'write':
      if (outcome.written === 'created') return `Golden baseline for "${name}" written to ${path}. Review and commit it.`
      if (outcome.written === 'updated') return `Golden baseline for "${name}" rewritten at ${path} (update mode "all"). Review and commit it.`
      return `Golden baseline for "${name}" at ${path} is up to date.`
    case 'compare':
      if (outcome.pass) return `Trace "${name}" matches its golden baseline (${path}).`
      return `${mismatchMessage(name, path, outcome.diff)}\n\nIf the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), then review and commit ${path}.`
  }
}

/**
 * Compares `trace` with its golden baseline, writing the golden when the
 * update mode says so (see `reconcile`). Does not throw on a mismatch: the
 * result says whether it passed, what was written, and why.
 *
 * @example
 * const result = matchGolden(s.trace, { traceDir: '.reagent', args: { tools: { search: 'ignore' } } })
 * if (!result.pass) throw new Error(result.message)
 */
export function matchGolden(trace: Trace, options: MatchGoldenOptions = {}): MatchGoldenResult {
  const diffOptions = resolveDiffOptions(options, 'matchGolden()', GOLDEN_OPTIONS)
  const { traceDir, update = resolveUpdateMode(), redact, store = fileGoldenStore(traceDir) } = options
  if (!UPDATE_MODES.includes(update)) {
    throw new RangeError(`matchGolden() option "update" must be one of "all", "new", "none"; got ${JSON.stringify(update)}.`)
  }
  const path = store.resolvePath(trace.name)
  const text = store.read(path)
  const recorded = renderGolden(trace, redact)
  const outcome = reconcile(recorded, text === null ? null : { path, text }, update, diffOptions)
  if (outcome.action === 'write' && outcome.written !== 'unchanged') store.save(path, recorded.text)
  return {
    pass: outcome.action === 'write' || (outcome.action === 'compare' && outcome.pass),
    written: outcome.action === 'write' ? outcome.written : null,
    path,
    update,
    diff: outcome.action === 'compare' ? outcome.diff : null,
    actual: recorded.trace,
    expected: outcome.action === 'compare' ? outcome.expected : null,
    message: messageOf(trace.name, path, outcome),
  }
}
