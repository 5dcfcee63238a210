/**
 * Golden baseline files: their bytes (normal form, redacted), and where they
 * are read and written (the GoldenStore the golden engine goes through).
 */
import { normalizeTrace } from '../trace/normalize.js'
import { goldenFileChunks, joinChunks } from '../trace/trace-text.js'
import type { JsonValue, Trace } from '../trace/types.js'
import { readTextOrNull, writeFileAtomic } from './atomic-write.js'
import { DEFAULT_TRACE_DIR, tracePath } from './paths.js'
import { readTraceFile } from './trace-reader.js'
import { pieceRedactor } from './trace-writer.js'
import type { RedactOption } from '../trace/redact.js'

/** A recorded trace in golden normal form, as an object and as the bytes its golden file would hold (made when read). */
export interface GoldenRecording {
  trace: Trace
  readonly text: string
}

/**
 * `trace` as its golden file holds it: in normal form (see
 * trace/normalize.ts) and redacted, so that comparing it with a golden
 * compares what the file can hold. The file's bytes are only produced when
 * read (`text`): comparing a run with its golden needs the object alone.
 */
export function renderGolden(trace: Trace, redact?: RedactOption): GoldenRecording {
  const redactor = pieceRedactor(redact)
  let normal = normalizeTrace(trace)
  // Normalised first, so ids are renumbered before any redaction; turn by turn, so a trace of any size can be.
  if (redactor !== undefined) {
    const { turns, ...fields } = normal
    normal = { ...(redactor.redact(fields as unknown as JsonValue) as object), turns: turns.map((turn) => redactor.redact(turn as unknown as JsonValue)) } as unknown as Trace
  }
  let text: string | undefined
  return {
    trace: normal,
    get text() {
      return (text ??= joinChunks(goldenFileChunks(normal)))
    },
  }
}

/** Reads the golden baseline of `name`. A missing baseline is a `TraceNotFoundError` naming the path looked at. */
export function loadGolden(name: string, { traceDir = DEFAULT_TRACE_DIR }: { traceDir?: string | undefined } = {}): Trace {
  const path = tracePath(name, { traceDir, golden: true })
  return readTraceFile(
    path,
    `There is no golden baseline for "${name}" yet. Record one with session(${JSON.stringify(name)}, { golden: true }, ...) ` +
      `or run your tests with REAGENT_UPDATE=new, then commit ${path}.`,
    name,
  )
}

/**
 * Where golden baselines live, and their reads and writes: the golden engine
 * (golden.ts) goes through this, never through `fs`, as vitest's snapshot
 * engine goes through its SnapshotEnvironment.
 */
export interface GoldenStore {
  /** The file of the golden baseline of trace `name`. */
  resolvePath(name: string): string
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null
  /**
   * Writes `text` atomically, without comparing it with what the file holds:
   * it is called only when `reconcile` decided the file must change.
   */
  save(path: string, text: string): void
}

/** Golden files under `<traceDir>/golden/`. */
export function fileGoldenStore(traceDir: string = DEFAULT_TRACE_DIR): GoldenStore {
  return {
    resolvePath: (name) => tracePath(name, { traceDir, golden: true }),
    read: readTextOrNull,
    save: (path, text) => void writeFileAtomic(path, text),
  }
}
