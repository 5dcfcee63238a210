/**
 * Writing trace files: redacted, streamed in pieces (any size), atomic.
 */
import { checkNesting } from '../trace/depth.js'
import { redactForDiskUnchecked, type RedactOption } from '../trace/redact.js'
import { normalizeTrace } from '../golden/normal-form.js'
import { goldenFileChunks, joinChunks, runFileChunks, type PieceRedactor } from '../trace/trace-text.js'
import type { Trace } from '../trace/types.js'
import { readTextOrNull, writeAtomic } from './atomic-write.js'
import { tracePath, type TraceLocation } from './paths.js'

export interface SaveOptions extends TraceLocation {
  /** Secrets to remove from what is written; see `RedactOption`. Default: the built-in secret shapes. */
  redact?: RedactOption | undefined
}

/**
 * The redaction every written piece goes through (the one function that owns
 * it); undefined with `redact: false`. The pieces are of a trace whose nesting
 * was checked whole (by `saveTrace`, `matchGolden`) or cut by the recorder.
 */
export function pieceRedactor(redact: RedactOption | undefined): PieceRedactor | undefined {
  if (redact === false) return undefined
  return { redact: (value) => redactForDiskUnchecked(value, redact) }
}

/** The pieces of the file written for `trace`: redacted, and in golden normal form when `golden`. */
export function traceChunks(trace: Trace, { golden = false, redact }: Pick<SaveOptions, 'golden' | 'redact'> = {}): Generator<string> {
  const redactor = pieceRedactor(redact)
  return golden ? goldenFileChunks(normalizeTrace(trace), redactor) : runFileChunks(trace, redactor)
}

/** The bytes written for `trace`, as one string: for traces known to be small. */
export function renderTrace(trace: Trace, options: Pick<SaveOptions, 'golden' | 'redact'> = {}): string {
  return joinChunks(traceChunks(trace, options))
}

/** Writes `chunks` to `path` atomically, in pieces. */
export function writeChunks(path: string, chunks: Iterable<string>): void {
  writeAtomic(path, (sink) => {
    for (const chunk of chunks) sink.write(chunk)
  })
}

/**
 * Writes `trace` to its file (see `tracePath`) and returns the path. A golden
 * file whose bytes would not change is left alone, so its mtime stays put. A
 * trace nested more than 1,000 levels deep is refused with the
 * `TraceFormatError` (rule `depth`) the reader would give for its file.
 */
export function saveTrace(trace: Trace, options: SaveOptions = {}): string {
  checkNesting(trace)
  const path = tracePath(trace.name, options)
  if (options.golden === true) {
    const text = renderTrace(trace, options)
    if (readTextOrNull(path) !== text) writeChunks(path, [text])
    return path
  }
  writeChunks(path, traceChunks(trace, options))
  return path
}
