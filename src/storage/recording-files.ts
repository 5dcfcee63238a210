/**
 * The disk side of recordings (`<name>.recording.json`, beside the run file
 * they belong to): read, written atomically (and left alone when unchanged,
 * so a replay never dirties a checkout), listed, and their last use.
 *
 * The last use is the file's access time, which reagent-flow sets itself
 * each time a session replays from it; the modification time is when it was
 * last recorded. Listing reads a file and puts its access time back, so
 * looking at recordings is not a use.
 */
import { rmSync, statSync, utimesSync } from 'node:fs'
import { TraceFileError } from '../errors/index.js'
import { readTextOrNull, writeFileAtomic } from './atomic-write.js'
import { listRunFiles } from './directory.js'
import { RECORDING_SUFFIX } from './paths.js'

export interface RecordingFileStat {
  path: string
  bytes: number
  /** When it was last written (recorded), ms since the epoch. */
  recordedMs: number
  /** When a session last replayed from it (or it was recorded), ms since the epoch. */
  usedMs: number
}

/** The text of the recording at `path`, or null when there is none. */
export function readRecordingText(path: string): string | null {
  return readTextOrNull(path)
}

/** Writes a recording; false (and the file untouched) when it already holds exactly `text`. */
export function writeRecordingText(path: string, text: string): boolean {
  return writeFileAtomic(path, text, { skipIfUnchanged: true })
}

/** Notes that a session replayed from `path` now. Best effort: a read-only checkout still replays. */
export function markRecordingUsed(path: string, now = new Date()): void {
  try {
    // In seconds, not a Date: a Date would cut the modification time to the millisecond.
    utimesSync(path, now, statSync(path).mtimeMs / 1000)
  } catch {
    // The last use is a convenience for pruning; replaying matters more.
  }
}

/** Size and times of a recording, or undefined when it is gone. */
export function statRecording(path: string): RecordingFileStat | undefined {
  try {
    const stat = statSync(path)
    return { path, bytes: stat.size, recordedMs: stat.mtimeMs, usedMs: Math.max(stat.atimeMs, stat.mtimeMs) }
  } catch {
    return undefined
  }
}

/** Reads a recording for a listing, then puts its access time back: looking is not using. */
export function peekRecordingText(stat: RecordingFileStat): string | null {
  const text = readTextOrNull(stat.path)
  try {
    utimesSync(stat.path, stat.usedMs / 1000, stat.recordedMs / 1000)
  } catch {
    // A read-only directory: its times were not ours to keep anyway.
  }
  return text
}

/** Every recording under `dir` (runs' folders, as traces are found), sorted; empty when `dir` does not exist. */
export function listRecordingFiles(dir: string): string[] {
  return listRunFiles(dir, RECORDING_SUFFIX) ?? []
}

/** Removes a recording. Throws `TraceFileError` naming the path when it cannot. */
export function removeRecording(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch (error) {
    throw new TraceFileError(path, 'remove', error)
  }
}
