/**
 * A recorded run as its golden file holds it: in normal form and redacted,
 * as an object (for comparing) and as bytes (made only when read).
 */
import { pieceRedactor } from '../storage/index.js'
import { goldenFileChunks, joinChunks } from '../trace/trace-text.js'
import type { RedactOption } from '../redact/index.js'
import type { JsonValue, Trace } from '../trace/types.js'
import { normalizeTrace } from './normal-form.js'

/** A recorded trace in golden normal form, as an object and as the bytes its golden file would hold (made when read). */
export interface GoldenRecording {
  trace: Trace
  readonly text: string
}

/**
 * `trace` as its golden file holds it: in normal form (see normal-form.ts)
 * and redacted, so that comparing it with a golden compares what the file
 * can hold. The file's bytes are only produced when read (`text`):
 * comparing a run with its golden needs the object alone.
 */
export function renderGolden(trace: Trace, redact?: RedactOption): GoldenRecording {
  const redactor = pieceRedactor(redact)
  let normal = normalizeTrace(trace)
  // Normalised first, so ids are renumbered before any redaction; turn by turn, so a trace of any size can be.
  if (redactor !== undefined) {
    const { turns, ...fields } = normal
    normal = {
      ...(redactor.redact(fields as unknown as JsonValue) as object),
      turns: turns.map((turn) => redactor.redact(turn as unknown as JsonValue)),
    } as unknown as Trace
  }
  let text: string | undefined
  return {
    trace: normal,
    get text() {
      return (text ??= joinChunks(goldenFileChunks(normal)))
    },
  }
}
