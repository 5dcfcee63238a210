/**
 * Which golden baseline belongs to a run, and whether the run matches it.
 *
 * The one rule, for every layout: a run's golden is the file at the run's
 * own place under `golden/` (`refund.trace.json` -> `golden/refund.trace.json`,
 * `tests/a.test.ts/happy.trace.json` -> `golden/tests/a.test.ts/happy.trace.json`;
 * a journal stands for the trace file it becomes). Failing that, a run that
 * names its test file and test name takes the golden with the same test
 * file, test name and trace name, wherever it is under `golden/`; a run of a
 * run set (`repeat()`) takes its run set's golden: the golden named as the
 * run set, of the same test file.
 *
 * The comparison is `reagent-flow diff <name>`'s: both sides in golden
 * normal form, default options.
 */
import { resolveDiffOptions } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import { compareWithGolden, renderGolden } from '../golden/index.js'
import { JOURNAL_SUFFIX, TRACE_FILE_SUFFIX } from '../storage.js'
import type { Trace } from '../trace/types.js'
import type { GoldenState, RunSummary } from './types.js'

export const GOLDEN_FOLDER = 'golden'
const DEFAULT_OPTIONS = resolveDiffOptions({})

/** Whether a path relative to the trace directory is under `golden/`. */
export function isGoldenPath(id: string): boolean {
  return id === GOLDEN_FOLDER || id.startsWith(`${GOLDEN_FOLDER}/`)
}

/** The trace file a run's file stands for: itself, or for a journal `<name>.<trace_id>.journal.jsonl`, `<name>.trace.json`. */
export function runFileOf(id: string): string {
  if (!id.endsWith(JOURNAL_SUFFIX)) return id
  const stem = id.slice(0, -JOURNAL_SUFFIX.length)
  return `${stem.slice(0, stem.lastIndexOf('.'))}${TRACE_FILE_SUFFIX}`
}

/** The golden of `run` among `goldens` (by id), or undefined. */
export function goldenOf(run: RunSummary, goldens: ReadonlyMap<string, RunSummary>): RunSummary | undefined {
  const mirrored = goldens.get(`${GOLDEN_FOLDER}/${runFileOf(run.id)}`)
  if (mirrored !== undefined) return mirrored
  for (const golden of goldens.values()) {
    if (run.run_set !== null) {
      if (golden.name === run.run_set && golden.test_file === run.test_file) return golden
    } else if (run.test_file !== null && run.test_name !== null) {
      if (golden.test_file === run.test_file && golden.test_name === run.test_name && golden.name === run.name) return golden
    }
  }
  return undefined
}

/** `run` (as recorded) against the golden file's text, as `reagent-flow diff` compares them. */
export function diffWithGolden(goldenPath: string, goldenText: string, run: Trace): TraceDiff {
  return compareWithGolden({ path: goldenPath, text: goldenText }, renderGolden(run).trace, DEFAULT_OPTIONS).diff
}

/** The state of a run against a golden file (text null: it went away); never throws. */
export function goldenStateOf(goldenPath: string, goldenText: string | null, run: Trace): { state: GoldenState; changes: number } {
  if (goldenText === null) return { state: 'none', changes: 0 }
  try {
    const diff = diffWithGolden(goldenPath, goldenText, run)
    return { state: diff.equal ? 'matches' : 'differs', changes: diff.changes.length }
  } catch {
    return { state: 'unreadable', changes: 0 }
  }
}
