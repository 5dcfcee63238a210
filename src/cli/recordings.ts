/**
 * The recordings of a trace directory, summed up for `reagent-flow
 * recordings`: each file's runs, scopes (session and user), calls and tool
 * runs, size, when it was recorded and when a session last used it (see
 * storage/recording-files.ts).
 */
import { relative } from 'node:path'
import { parseRecording } from '../replay/recording-format.js'
import { listRecordingFiles, peekRecordingText, statRecording } from '../storage/index.js'

/** One recording in `recordings --json`. */
export interface RecordingRow {
  file: string
  /** The session whose runs it records. */
  name: string
  /** One per session id and user id. */
  scopes: number
  calls: number
  tool_runs: number
  bytes: number
  /** When it was last written, epoch seconds. */
  recorded_at: number
  /** When a session last replayed from it (or recorded it), epoch seconds. */
  last_used_at: number
}

export interface RecordingScan {
  recordings: RecordingRow[]
  unreadable: Array<{ file: string; reason: string }>
}

/** The recordings under `dir`, by file path. */
export function scanRecordings(dir: string): RecordingScan {
  const out: RecordingScan = { recordings: [], unreadable: [] }
  for (const path of listRecordingFiles(dir)) {
    const stat = statRecording(path)
    if (stat === undefined) continue
    const file = relative(process.cwd(), path) || path
    try {
      const recording = parseRecording(peekRecordingText(stat) ?? '', path)
      const steps = recording.scopes.flatMap((scope) => scope.steps)
      out.recordings.push({
        file,
        name: recording.name,
        scopes: recording.scopes.length,
        calls: steps.filter((step) => step.kind === 'exchange').length,
        tool_runs: steps.filter((step) => step.kind === 'tool').length,
        bytes: stat.bytes,
        recorded_at: stat.recordedMs / 1000,
        last_used_at: stat.usedMs / 1000,
      })
    } catch (error) {
      out.unreadable.push({ file, reason: error instanceof Error ? error.message : String(error) })
    }
  }
  return out
}

/** `just now`, `5 min ago`, `3 h ago`, `12 days ago`. */
export function formatAge(seconds: number, now = Date.now() / 1000): string {
  const ago = Math.max(0, now - seconds)
  if (ago < 60) return 'just now'
  if (ago < 3600) return `${Math.floor(ago / 60)} min ago`
  if (ago < 86_400) return `${Math.floor(ago / 3600)} h ago`
  const days = Math.floor(ago / 86_400)
  return `${days} day${days === 1 ? '' : 's'} ago`
}

/** `812 B`, `14.2 KiB`, `3.1 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}
