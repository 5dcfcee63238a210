/**
 * A trace written to its file yourself (`saveTrace` of `reagent-flow/files`):
 * a run file, or with `golden: true` a golden file. The golden normal form is
 * this folder's (normal-form.ts), so a golden file's bytes are made here and
 * handed to the disk layer (storage/), which writes run files and bytes and
 * knows nothing of the golden format.
 */
import type { RedactOption } from '../redact/index.js'
import { pieceRedactor, renderTrace as renderRunFile, tracePath, traceChunks, writeChunks, writeFileAtomic, type TraceLocation } from '../storage/index.js'
import { checkNesting } from '../trace/depth.js'
import { goldenFileChunks, joinChunks } from '../trace/trace-text.js'
import type { Trace } from '../trace/types.js'
import { normalizeTrace } from './normal-form.js'

export interface SaveOptions extends TraceLocation {
  /** Secrets to remove from what is written; see `RedactOption`. Default: the built-in secret shapes. */
  redact?: RedactOption | undefined
}

/** The bytes written for `trace`, as one string: redacted, and in golden normal form when `golden`. For traces known to be small. */
export function renderTrace(trace: Trace, { golden = false, redact }: Pick<SaveOptions, 'golden' | 'redact'> = {}): string {
  return golden ? joinChunks(goldenFileChunks(normalizeTrace(trace), pieceRedactor(redact))) : renderRunFile(trace, { redact })
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
  if (options.golden === true) writeFileAtomic(path, renderTrace(trace, options), { skipIfUnchanged: true })
  else writeChunks(path, traceChunks(trace, options))
  return path
}
