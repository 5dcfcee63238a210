/**
 * Goldens with more than one accepted variant: a non-deterministic agent
 * may do one thing or another and be right both times.
 *
 * The file (docs/decisions/029-golden-variants.md): the first variant is
 * the file's own trace, so a golden with one variant is exactly today's file
 * and a reader that knows nothing of variants (reagent-flow 0.5, an older
 * version of ours) reads the first one; the others are whole traces in
 * golden normal form under the extra top-level key `variants`. Variants are
 * kept in the order of their own text (as each alone would be written),
 * without duplicates, so a set of variants always makes the same bytes,
 * whatever order they were accepted in.
 *
 * A run matches the golden when it matches any variant; the diff shown on
 * a mismatch is against the closest (the first equal one, else the one with
 * the fewest changes, the earlier on a tie).
 */
import { diffResolved } from '../diff/diff-traces.js'
import type { ResolvedDiffOptions } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import { expandMessages } from '../trace/messages.js'
import { goldenFileChunks, goldenValue, joinChunks } from '../trace/trace-text.js'
import type { Trace } from '../trace/types.js'
import { parseTrace } from '../trace/validate.js'
import { normalizeTrace } from './normal-form.js'

/** The top-level key of a golden file that holds its other accepted variants. */
export const VARIANTS_KEY = 'variants'

/** One accepted variant: in golden normal form, and the text it would have as a golden file of its own (made when read). */
export interface GoldenVariant {
  trace: Trace
  readonly text: string
}

/** A golden file as read: its path and text. */
export interface GoldenFile {
  path: string
  text: string
}

/** A variant with its text made once, when first read. */
export function variantOf(trace: Trace): GoldenVariant {
  let made: string | undefined
  return {
    trace,
    get text() {
      return (made ??= joinChunks(goldenFileChunks(trace)))
    },
  }
}

/**
 * The accepted variants of a golden file, in file order, each in normal
 * form with every call's full messages, and with the text the current
 * normal form gives it (whatever form the file was written in). A file
 * that is not a valid trace, or whose `variants` are not, is a
 * TraceFormatError naming the file (and the JSON path,
 * `variants[0].turns[2]...`).
 */
export function readVariants(golden: GoldenFile): GoldenVariant[] {
  // The schema checks the nested variants as traces too.
  const { [VARIANTS_KEY]: nested, ...first } = parseTrace(golden.text, golden.path)
  const traces = [first as Trace, ...((nested as Trace[] | undefined) ?? [])]
  return traces.map((trace, at) => {
    expandMessages(trace.turns, at === 0 ? golden.path : `${golden.path} (${VARIANTS_KEY}[${at - 1}])`)
    // Its text is made again, not taken from the file: a golden written in an older form
    // (`messages_base`, decision note 049) then reads as the file the current form would write.
    return variantOf(normalizeTrace(trace))
  })
}

/** The variants as a golden file holds them: without duplicates, in the order of their texts, the first as the file's own trace. */
export function variantsText(variants: readonly GoldenVariant[]): { text: string; order: GoldenVariant[] } {
  const byText = new Map<string, GoldenVariant>()
  for (const variant of variants) if (!byText.has(variant.text)) byText.set(variant.text, variant)
  const order = [...byText.keys()].sort().map((text) => byText.get(text)!)
  const [first, ...others] = order
  if (first === undefined) throw new RangeError('a golden needs at least one variant')
  if (others.length === 0) return { text: first.text, order }
  const file = { ...first.trace, [VARIANTS_KEY]: others.map((variant) => goldenValue(variant.trace)) }
  return { text: joinChunks(goldenFileChunks(file)), order }
}

/** The variant `actual` (in normal form) is closest to, from 0, and the diff against it. */
export function closestVariant(
  variants: readonly GoldenVariant[],
  actual: Trace,
  options: ResolvedDiffOptions,
): { at: number; expected: Trace; diff: TraceDiff } {
  let best: { at: number; expected: Trace; diff: TraceDiff } | undefined
  for (const [at, variant] of variants.entries()) {
    const diff = diffResolved(variant.trace, actual, options)
    if (diff.equal) return { at, expected: variant.trace, diff }
    if (best === undefined || diff.changes.length < best.diff.changes.length) best = { at, expected: variant.trace, diff }
  }
  return best!
}
