/**
 * `matchGolden()`: a recorded run against its golden baseline, written or
 * compared as the update mode says — the one write path behind
 * `toMatchGolden()`, `session(name, { golden: true })` and the demo.
 */
import { resolveDiffOptions } from '../diff/options.js'
import type { DiffOptions, TraceDiff } from '../diff/types.js'
import type { RedactOption } from '../redact/index.js'
import { checkNesting } from '../trace/depth.js'
import type { Trace } from '../trace/types.js'
import { outcomeMessage } from './messages.js'
import { reconcile } from './reconcile.js'
import { renderGolden } from './render.js'
import { fileGoldenStore, type GoldenStore } from './store.js'
import { resolveUpdateMode, UPDATE_MODES, type UpdateMode } from './update-mode.js'

export interface MatchGoldenOptions extends DiffOptions {
  /** Directory of traces; goldens are in `<traceDir>/golden/`. Default: `".reagent"` (inside vitest, resolved against its root). */
  traceDir?: string | undefined
  /** The update mode. Default: `resolveUpdateMode()` (REAGENT_UPDATE, then CI). @example { update: 'all' } */
  update?: UpdateMode | undefined
  /** Secrets removed from the golden, as when it is written. Default: the built-in rules (README, "Redaction"). */
  redact?: RedactOption | undefined
  /** Where goldens are read and written. Default: files under `<traceDir>/golden/`. */
  store?: GoldenStore | undefined
  /** The file of the recorded run, for the command that accepts it (failure messages). */
  runPath?: string | undefined
}

export interface MatchGoldenResult {
  pass: boolean
  /** What was written: a new golden, a rewritten one, one rewritten in the current form only (`reformatted`), one left as it was (mode `all`), or nothing (null). */
  written: 'created' | 'updated' | 'reformatted' | 'unchanged' | null
  /** How it ended: `matched`, `written` (created), `updated`, `reformatted` (mode `all`, same behaviour, older form), `unchanged` (mode `all`, same bytes), `failed` (differs), `missing` (none, and none written). */
  outcome: 'matched' | 'written' | 'updated' | 'reformatted' | 'unchanged' | 'failed' | 'missing'
  path: string
  update: UpdateMode
  /** The comparison with the existing golden; null when none was made. */
  diff: TraceDiff | null
  /** The recorded trace in golden normal form. */
  actual: Trace
  /** The golden in normal form, when it was compared: of several accepted variants, the closest. */
  expected: Trace | null
  /** When it was compared: which variant is `expected` (from 1), and how many the golden has. */
  variant: { index: number; of: number } | null
  message: string
}

const GOLDEN_OPTIONS = ['traceDir', 'update', 'redact', 'store', 'runPath']

/**
 * Compares `trace` with its golden baseline, writing the golden when the
 * update mode says so (see `reconcile`). Does not throw on a mismatch: the
 * result says whether it passed, what was written, and why. A trace nested
 * more than 1,000 levels deep is refused with the `TraceFormatError` (rule
 * `depth`) the reader would give for its file.
 *
 * @example
 * const result = matchGolden(s.trace, { traceDir: '.reagent', args: { tools: { search: 'ignore' } } })
 * if (!result.pass) throw new Error(result.message)
 */
export function matchGolden(trace: Trace, options: MatchGoldenOptions = {}): MatchGoldenResult {
  const diffOptions = resolveDiffOptions(options, 'matchGolden()', GOLDEN_OPTIONS)
  const { traceDir, update = resolveUpdateMode(), redact, store = fileGoldenStore(traceDir), runPath } = options
  if (!UPDATE_MODES.includes(update)) {
    throw new RangeError(`matchGolden() option "update" must be one of "all", "new", "none"; got ${JSON.stringify(update)}.`)
  }
  checkNesting(trace)
  const path = store.resolvePath(trace)
  const text = store.read(path)
  const recorded = renderGolden(trace, redact)
  const decision = reconcile(recorded, text === null ? null : { path, text }, update, diffOptions)
  if (decision.action === 'write' && decision.written !== 'unchanged') store.save(path, decision.text)
  const outcome =
    decision.action === 'fail'
      ? 'missing'
      : decision.action === 'compare'
        ? decision.pass
          ? 'matched'
          : 'failed'
        : decision.written === 'created'
          ? 'written'
          : decision.written
  return {
    pass: decision.action === 'write' || (decision.action === 'compare' && decision.pass),
    written: decision.action === 'write' ? decision.written : null,
    outcome,
    path,
    update,
    diff: decision.action === 'compare' ? decision.diff : null,
    actual: recorded.trace,
    expected: decision.action === 'compare' ? decision.expected : null,
    variant: decision.action === 'compare' ? { index: decision.variant, of: decision.variants } : null,
    message: outcomeMessage(trace.name, path, decision, runPath, traceDir),
  }
}
