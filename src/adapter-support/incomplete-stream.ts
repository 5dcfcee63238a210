/**
 * Why a streamed response is incomplete, in the words every adapter records:
 * a stream is whole once its last event has arrived (or, where the SDK does
 * not hand that event out, once it is read to its end without an abort).
 */
import type { StreamFold } from './model-api.js'
import type { StreamEnd } from './stream-tap.js'

/** The error of a stream its reader closed before its last event. */
export function closedEarly(lastEvent: string): string {
  return `the stream was closed by its reader before ${lastEvent}: the response is incomplete`
}

/** The error of a stream that ended, or was aborted, before its last event. */
export function endedEarly(lastEvent: string): string {
  return `the stream ended before ${lastEvent}: the response is incomplete (was the request aborted?)`
}

/** Why a stream whose reading ended this way is incomplete; undefined when it is whole (or failed: its error says why). */
export function incompleteBecause(end: StreamEnd, fold: StreamFold<never>): string | undefined {
  if (fold.isComplete === true || end.how === 'error') return undefined
  if (end.how === 'return') return closedEarly(fold.lastEvent)
  if (end.how === 'abort' || fold.isComplete === false) return endedEarly(fold.lastEvent)
  return undefined
}
