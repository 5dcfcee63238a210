/**
 * Writing trace files: redacted, streamed in pieces (any size), atomic. What
 * a run file holds is written here; a golden file's bytes are made by the
 * golden engine (golden/trace-file.ts), which owns its normal form, and
 * handed down to be written.
 */
import { redactForDiskUnchecked, type RedactOption } from '../redact/index.js'
import { joinChunks, runFileChunks, type PieceRedactor } from '../trace/trace-text.js'
import type { TurnFragments } from '../trace/turn-fragments.js'
import type { Trace } from '../trace/types.js'
import { writeAtomic } from './atomic-write.js'

/**
 * The redaction every written piece goes through (the one function that owns
 * it); undefined with `redact: false`. The pieces are of a trace whose nesting
 * was checked whole (by `saveTrace`, `matchGolden`) or cut by the recorder.
 */
export function pieceRedactor(redact: RedactOption | undefined): PieceRedactor | undefined {
  if (redact === false) return undefined
  return { redact: (value) => redactForDiskUnchecked(value, redact) }
}

/**
 * The pieces of the run file written for `trace`, redacted. `fragments`: the
 * turn text its journal made, redacted under the same `redact`, used for
 * every turn unchanged since (see trace/turn-fragments.ts).
 */
export function traceChunks(
  trace: Trace,
  { redact, fragments }: { redact?: RedactOption | undefined; fragments?: TurnFragments | undefined } = {},
): Generator<string> {
  return runFileChunks(trace, pieceRedactor(redact), fragments)
}

/** The bytes of the run file written for `trace`, as one string: for traces known to be small. */
export function renderTrace(trace: Trace, options: { redact?: RedactOption | undefined } = {}): string {
  return joinChunks(traceChunks(trace, options))
}

/** Writes `chunks` to `path` atomically, in pieces. */
export function writeChunks(path: string, chunks: Iterable<string>): void {
  writeAtomic(path, (sink) => {
    for (const chunk of chunks) sink.write(chunk)
  })
}
