/**
 * Recorded calls a replayed session never used: the agent no longer makes
 * them, so the recording says something the agent does not. Reported when a
 * session that completed closes: a warning, or with `strict: true` an error
 * session() rejects with; in `prune`, they are dropped, and that is said.
 */
import { warn } from '../warnings/warnings.js'
import { UnusedRecordingError } from '../errors/index.js'
import type { BookEntry, StepBook } from './step-book.js'

export { UnusedRecordingError }

/** A recording a `prune` session rewrote without the recorded calls the run no longer made. */
export interface PrunedRecording {
  /** The recording file. */
  path: string
  /** How many recorded calls (model calls and tool runs) were dropped. */
  calls: number
}

function describe(entry: BookEntry): string {
  const { step } = entry
  return step.kind === 'exchange'
    ? `${step.endpoint} (call ${entry.ordinal} of the recording)`
    : `tool ${step.name} (tool run ${entry.ordinal} of the recording)`
}

/** `3, 5-9, 12`: ordinals in order, runs of them as ranges. */
function ranges(ordinals: readonly number[]): string {
  const parts: string[] = []
  for (let i = 0; i < ordinals.length; i++) {
    const start = ordinals[i]!
    while (i + 1 < ordinals.length && ordinals[i + 1] === ordinals[i]! + 1) i++
    parts.push(start === ordinals[i] ? String(start) : `${start}-${ordinals[i]}`)
  }
  return parts.join(', ')
}

/** The unused steps, one phrase per endpoint (or tool): a thousand unused calls read as one line. */
function summarize(unused: readonly BookEntry[]): string {
  const groups = new Map<string, { kind: 'call' | 'tool run'; ordinals: number[] }>()
  for (const entry of unused) {
    const { step } = entry
    const label = step.kind === 'exchange' ? step.endpoint : `tool ${step.name}`
    let group = groups.get(label)
    if (group === undefined) groups.set(label, (group = { kind: step.kind === 'exchange' ? 'call' : 'tool run', ordinals: [] }))
    group.ordinals.push(entry.ordinal)
  }
  return [...groups]
    .map(([label, { kind, ordinals }]) =>
      ordinals.length === 1
        ? `${label} (${kind} ${ordinals[0]} of the recording)`
        : `${label} x${ordinals.length} (${kind}s ${ranges(ordinals)} of the recording)`,
    )
    .join(', ')
}

/** Warns about (or, strict, returns the error for) the unused recorded steps; undefined when every one was used. */
export function reportUnused(
  book: StepBook,
  options: { name: string; recordingPath: string; strict: boolean; replayTools: boolean },
): UnusedRecordingError | undefined {
  // Tool runs are answered from the recording only with replayTools; otherwise they are there for when it is set.
  const unused = book.unused((entry) => entry.step.kind === 'exchange' || options.replayTools)
  if (unused.length === 0) return undefined
  const what = unused.length === 1 ? '1 recorded call was' : `${unused.length} recorded calls were`
  const message =
    `session "${options.name}": ${what} not used: ${summarize(unused)} in ${options.recordingPath}. ` +
    `The agent no longer makes ${unused.length === 1 ? 'it' : 'them'}: run again with REAGENT_REPLAY=prune (or record again with REAGENT_REPLAY=record) to drop ${unused.length === 1 ? 'it' : 'them'}.`
  if (!options.strict) {
    warn('REAGENT_REPLAY', message)
    return undefined
  }
  return new UnusedRecordingError(message, { sessionName: options.name, recordingPath: options.recordingPath, unused: unused.map(describe) })
}

/** Says (a warning) that a `prune` session dropped `calls` recorded calls its run no longer made. */
export function reportPruned(calls: number, options: { name: string; recordingPath: string }): PrunedRecording {
  warn('REAGENT_REPLAY', `session "${options.name}": pruned ${calls} recorded call${calls === 1 ? '' : 's'} no longer made from ${options.recordingPath}.`)
  return { path: options.recordingPath, calls }
}
