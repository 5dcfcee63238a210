/**
 * Where golden baselines live, and their reads, writes and removals: the
 * golden engine goes through a GoldenStore, never through `fs`, as vitest's
 * snapshot engine goes through its SnapshotEnvironment. The file store keeps
 * them under `<traceDir>/golden/` — inside vitest, in a folder per test file
 * (`<traceDir>/golden/test/refund.test.ts/<test name>.trace.json`).
 */
import { DEFAULT_TRACE_DIR, readTextOrNull, readTraceFile, removeQuietly, resolveTraceFile, writeFileAtomic, type TraceIdentity } from '../storage/index.js'
import type { Trace } from '../trace/types.js'
import { goldenIdentity } from './identity.js'

export interface GoldenStore {
  /**
   * The file of the golden baseline of a trace, known by its name (and,
   * inside vitest, its test file and key); a run of a run set (`repeat`)
   * shares its run set's golden.
   */
  resolvePath(trace: TraceIdentity): string
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null
  /**
   * Writes `text` atomically, without comparing it with what the file holds:
   * it is called only when `reconcile` decided the file must change.
   */
  save(path: string, text: string): void
  /** Removes an obsolete golden. */
  remove(path: string): void
}

/** Golden files under `<traceDir>/golden/`. */
export function fileGoldenStore(traceDir: string = DEFAULT_TRACE_DIR): GoldenStore {
  return {
    resolvePath: (trace) => resolveTraceFile(goldenIdentity(trace), { traceDir, golden: true }),
    read: readTextOrNull,
    save: (path, text) => void writeFileAtomic(path, text),
    remove: removeQuietly,
  }
}

/**
 * Reads the golden baseline of `name` (outside vitest; inside, goldens are
 * read through the matchers). A missing baseline is a `TraceNotFoundError`
 * naming the path looked at.
 */
export function loadGolden(name: string, { traceDir = DEFAULT_TRACE_DIR }: { traceDir?: string | undefined } = {}): Trace {
  const path = resolveTraceFile({ name }, { traceDir, golden: true })
  return readTraceFile(
    path,
    `There is no golden baseline for "${name}" yet. Record one with session(${JSON.stringify(name)}, { golden: true }, ...) ` +
      `or run your tests with REAGENT_UPDATE=new, then commit ${path}.`,
    name,
  )
}
