/**
 * Every "write or not" decision about one golden, in one commented function
 * (as vitest keeps its snapshot state's `_reconcile`), and the one
 * comparison of a golden's text with a recorded run.
 */
import type { ResolvedDiffOptions } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import { isReagentError } from '../errors/index.js'
import type { Trace } from '../trace/types.js'
import { withInputsRecorded, type RecordedInput } from './record-inputs.js'
import type { GoldenRecording } from './render.js'
import type { UpdateMode } from './update-mode.js'
import { closestVariant, readVariants, variantOf, variantsText, type GoldenFile, type GoldenVariant } from './variants.js'

export type { GoldenFile } from './variants.js'

/**
 * How a run that is written becomes the golden (`reagent-flow approve`'s
 * choice; update mode `all` refreshes):
 * - `refresh`: it replaces the variant it matches, else all of them;
 * - `add`: it joins the accepted variants;
 * - `replace`: it becomes the one variant.
 */
export type Acceptance = 'refresh' | 'add' | 'replace'

/**
 * What update mode `all` (or an approval) decides: write the golden, unless its bytes would not change.
 * `reformatted`: the golden holds the same behaviour, written in an older form (decision note 049).
 */
export interface WriteDecision {
  action: 'write'
  written: 'created' | 'updated' | 'reformatted' | 'unchanged'
  /** The golden file's new text (its text as it was, when unchanged). */
  text: string
  /** How many accepted variants it had before (0: none), and has now. */
  variants: { before: number; after: number }
  /** Which variant the run is, from 1, in the golden's order. */
  variant: number
  /** For a golden older than the comparison of models and system prompts: what the matching run recorded into it. */
  recorded?: readonly RecordedInput[]
}

/** A comparison: `expected` and `diff` are the closest variant's, `variant` its number from 1 among `variants`. */
export interface Comparison {
  action: 'compare'
  pass: boolean
  expected: Trace
  diff: TraceDiff
  variant: number
  variants: number
  /** A golden older than the comparison of models and system prompts, matched under update mode `none`: what the run would record into it. */
  unrecorded?: readonly RecordedInput[]
}

export type Reconciliation = WriteDecision | Comparison | { action: 'fail'; reason: 'missing' }

/**
 * The golden `golden` holds, in normal form, and what differs between it and
 * `actual`, a run in golden normal form (see renderGolden): the one
 * comparison behind reconcile, assertMatchesBaseline and the CLI's diff and
 * approve. With several accepted variants, the closest one. A golden that is
 * not a valid trace is a TraceFormatError naming its file.
 */
export function compareWithGolden(golden: GoldenFile, actual: Trace, options: ResolvedDiffOptions): Omit<Comparison, 'action' | 'pass'> {
  const variants = readVariants(golden)
  const { at, expected, diff } = closestVariant(variants, actual, options)
  return { expected, diff, variant: at + 1, variants: variants.length }
}

/**
 * A run that matches an older golden whose calls lack their model or
 * messages: the golden with them recorded from the run (the matched variant
 * patched, the others kept).
 */
function withRecordedInputs(variants: readonly GoldenVariant[], at: number, upgrade: { trace: Trace; recorded: RecordedInput[] }): WriteDecision {
  const patched = variantOf(upgrade.trace)
  const { text, order } = variantsText(variants.map((variant, i) => (i === at ? patched : variant)))
  return {
    action: 'write',
    written: 'updated',
    text,
    variants: { before: variants.length, after: order.length },
    variant: order.indexOf(patched) + 1,
    recorded: upgrade.recorded,
  }
}

/** The variants of an existing golden for a write; a golden that is not a readable trace has none to keep (unless adding, where that is an error). */
function keptVariants(golden: GoldenFile, accept: Acceptance): GoldenVariant[] {
  try {
    return readVariants(golden)
  } catch (error) {
    if (accept === 'add' || !isReagentError(error)) throw error
    return []
  }
}

/** The golden written with the run `recorded`, accepted as `accept` says. */
function written(recorded: GoldenRecording, golden: GoldenFile, accept: Acceptance, options: ResolvedDiffOptions): WriteDecision {
  const existing = keptVariants(golden, accept)
  const before = accept === 'replace' ? [] : existing
  let after: GoldenVariant[]
  let inputs: readonly RecordedInput[] | undefined
  if (accept === 'add') after = [...before, recorded]
  else {
    // `refresh`: the variant the run matches is refreshed with it, the others kept; matching none, it is the one variant.
    const matched = before.length === 0 ? undefined : closestVariant(before, recorded.trace, options)
    after = matched === undefined || !matched.diff.equal ? [recorded] : before.map((variant, at) => (at === matched.at ? recorded : variant))
    // Refreshing a variant older than the comparison of models and system prompts records them: say so.
    inputs = matched?.diff.equal === true ? withInputsRecorded(matched.expected, recorded.trace, matched.diff, options.ignore)?.recorded : undefined
  }
  const { text, order } = variantsText(after)
  const written = text === golden.text ? 'unchanged' : sameContent(text, existing) ? 'reformatted' : 'updated'
  return {
    action: 'write',
    written,
    text,
    variants: { before: accept === 'replace' ? keptCount(golden) : before.length, after: order.length },
    variant: order.findIndex((variant) => variant.text === recorded.text) + 1,
    ...(inputs === undefined || written === 'unchanged' ? {} : { recorded: inputs }),
  }
}

/**
 * Whether the golden's new `text` holds what its variants `before` held: its
 * bytes change only because they were written in an older form (such as
 * `messages_base`), each variant's text being the one the current form gives it.
 */
function sameContent(text: string, before: readonly GoldenVariant[]): boolean {
  return before.length > 0 && variantsText(before).text === text
}

/** How many variants a golden holds, for a message; 1 for one that cannot be read. */
function keptCount(golden: GoldenFile): number {
  try {
    return readVariants(golden).length
  } catch {
    return 1
  }
}

/**
 * Decides what happens to the golden of one recorded trace (`golden` is
 * null when there is none yet). Every "write or not" decision is here, read
 * top to bottom:
 */
export function reconcile(recorded: GoldenRecording, golden: GoldenFile | null, mode: 'all', options: ResolvedDiffOptions, accept?: Acceptance): WriteDecision
export function reconcile(recorded: GoldenRecording, golden: GoldenFile | null, mode: UpdateMode, options: ResolvedDiffOptions): Reconciliation
export function reconcile(
  recorded: GoldenRecording,
  golden: GoldenFile | null,
  mode: UpdateMode,
  options: ResolvedDiffOptions,
  accept: Acceptance = 'refresh',
): Reconciliation {
  // 1. No golden yet: record one, except where goldens are never written (CI),
  //    since a golden first written by CI would pass without anyone reviewing it.
  if (golden === null) {
    return mode === 'none'
      ? { action: 'fail', reason: 'missing' }
      : { action: 'write', written: 'created', text: recorded.text, variants: { before: 0, after: 1 }, variant: 1 }
  }
  // 2. `all` takes the recorded behaviour as the new truth: the variant it
  //    matches is refreshed (or, approving, it is added, or replaces them
  //    all). Identical bytes are left alone, so re-recording the same
  //    behaviour changes no file; a golden of the same behaviour in an older
  //    form is rewritten in the current one, and said to be (`reformatted`).
  if (mode === 'all') {
    if (golden.text === recorded.text) return { action: 'write', written: 'unchanged', text: golden.text, variants: { before: 1, after: 1 }, variant: 1 }
    return written(recorded, golden, accept, options)
  }
  // 3. `new` and `none` never change what an existing golden says: compare
  //    behaviour, both sides in normal form, under the diff options, with
  //    each accepted variant; the run passes when it matches one.
  const variants = readVariants(golden)
  const { at, expected, diff } = closestVariant(variants, recorded.trace, options)
  const compared: Comparison = { action: 'compare', pass: diff.equal, expected, diff, variant: at + 1, variants: variants.length }
  if (!diff.equal) return compared
  // 4. A golden older than the comparison of models and system prompts (its
  //    calls lack them) is matched without them, and `new` records them
  //    from the matching run: only what it lacked, nothing it said changes.
  //    `none` (CI) passes and writes nothing.
  const upgrade = withInputsRecorded(expected, recorded.trace, diff, options.ignore)
  if (upgrade === undefined) return compared
  return mode === 'none' ? { ...compared, unrecorded: upgrade.recorded } : withRecordedInputs(variants, at, upgrade)
}
