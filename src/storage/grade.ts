/**
 * A verdict written into a recorded run's file after the run: the one place
 * a trace file is rewritten for its `grade` (`reagent-flow grade`, a goal
 * judged by `toReachGoal`).
 */
import type { Grade, Trace } from '../trace/types.js'
import { loadTrace } from './runs.js'
import { traceChunks, writeChunks } from './trace-writer.js'

/**
 * Reads the trace at `path`, asks `decide` for its new grade (undefined:
 * keep the file as it is) and writes it atomically, in pieces. The rest is
 * written as it was read, not redacted again: redact the grade before.
 * Returns the trace as read, with the grade it had as `previous`.
 */
export function updateGrade(path: string, decide: (trace: Trace) => Grade | undefined): { trace: Trace; previous: Grade | null; written: Grade | undefined } {
  const trace = loadTrace(path)
  const previous = trace.grade ?? null
  const written = decide(trace)
  if (written !== undefined) {
    trace.grade = written
    writeChunks(path, traceChunks(trace, { redact: false }))
  }
  return { trace, previous, written }
}
