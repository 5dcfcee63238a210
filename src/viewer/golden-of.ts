/**
 * Which golden baseline belongs to a run, and whether the run matches it.
 *
 * First the golden engine's own rule (`matchGolden`, `approve`): the file
 * `goldenIdentity(run)` is filed under (a run of a run set shares its run
 * set's). Failing that, the file at the run's own place under `golden/`
 * (`refund.trace.json` -> `golden/refund.trace.json`; a journal stands for
 * the trace file it becomes), then a golden with the run's test file, test
 * name and trace name wherever it is under `golden/` (moved by hand).
 *
 * The comparison is `reagent-flow diff <name>`'s: both sides in golden
 * normal form, default options.
 */
import { resolveDiffOptions } from '../diff/options.js'
import type { TraceDiff } from '../diff/types.js'
import { sep } from 'node:path'
import { compareWithGolden, renderGolden } from '../golden/index.js'
import { goldenIdentity } from '../golden/identity.js'
import { JOURNAL_SUFFIX, TRACE_FILE_SUFFIX, traceFilePath } from '../storage/index.js'
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

/** Where the golden engine files the golden of `trace`, relative to the trace directory: its plain and its hashed name. */
export function goldenIdsOf(trace: Trace): string[] {
  const identity = goldenIdentity(trace)
  return [false, true].map((hashed) => traceFilePath(identity, { traceDir: '', golden: true, hashed }).split(sep).join('/'))
}

/** The golden of `run` (whose golden the engine files at `filedAt`) among `goldens` (by id), or undefined. */
export function goldenOf(run: RunSummary, filedAt: readonly string[], goldens: ReadonlyMap<string, RunSummary>): RunSummary | undefined {
  for (const id of [...filedAt, `${GOLDEN_FOLDER}/${runFileOf(run.id)}`]) {
    const golden = goldens.get(id)
    if (golden !== undefined) return golden
  }
  if (run.test_file === null || run.test_name === null) return undefined
  for (const golden of goldens.values()) {
    if (golden.test_file === run.test_file && golden.test_name === run.test_name && golden.name === run.name) return golden
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
