/**
 * Recorded calls a replayed session never used: the agent no longer makes
 * them, so the recording says something the agent does not. Reported when a
 * session that completed closes: a warning, or with `strict: true` an error
 * session() rejects with.
 */
import { warn } from '../warnings.js'
import { UnusedRecordingError } from './errors.js'
import type { BookEntry, StepBook } from './step-book.js'

export { UnusedRecordingError }

function describe(entry: BookEntry): string {
  const { step } = entry
  return step.kind === 'exchange' ? `${step.endpoint} (call ${entry.ordinal} of the recording)` : `tool ${step.name} (tool run ${entry.ordinal} of the recording)`
}

/** Warns about (or, strict, returns the error for) the unused recorded steps; undefined when every one was used. */
export function reportUnused(book: StepBook, options: { name: string; recordingPath: string; strict: boolean; replayTools: boolean }): UnusedRecordingError | undefined {
  // Tool runs are answered from the recording only with replayTools; otherwise they are there for when it is set.
  const unused = book.unused((entry) => entry.step.kind === 'exchange' || options.replayTools)
  if (unused.length === 0) return undefined
  const what = unused.length === 1 ? '1 recorded call was' : `${unused.length} recorded calls were`
  const message =
    `session "${options.name}": ${what} not used: ${unused.map(describe).join(', ')} in ${options.recordingPath}. ` +
    `The agent no longer makes ${unused.length === 1 ? 'it' : 'them'}: record again with REAGENT_REPLAY=record (or the session option replay: 'record') to drop ${unused.length === 1 ? 'it' : 'them'}.`
  if (!options.strict) {
    warn('REAGENT_REPLAY', message)
    return undefined
  }
  return new UnusedRecordingError(message, { sessionName: options.name, recordingPath: options.recordingPath, unused: unused.map(describe) })
}
