/**
 * How the directory store removes runs without ever leaving half of one: a
 * prune first writes what it will remove (`ledger/.prune.json`, written
 * atomically: each run's files, the session()'s trace before the ledger's
 * file, so a run is there whole until its last file goes), then removes the
 * files run by run, then the journal. A prune cut short (a crash, a disk
 * refusing) is finished before anything else reads the directory: at the
 * next open, or at the next prune. A file is removed only while it still
 * holds the run the journal names: session() may have written a new run
 * under the same name since.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { readTextOrNull, readTraceFields } from '../../storage/index.js'
import { LEDGER_FOLDER, ledgerRunOf } from './run-files.js'

const JOURNAL_NAME = '.prune.json'

/** A run to remove: its identity, and its files (relative to the directory, `/` between folders) in the order they go. */
export interface PrunedRun {
  org: string
  namespace: string
  run_id: string
  files: string[]
}

export function pruneJournalPath(dir: string): string {
  return join(dir, LEDGER_FOLDER, JOURNAL_NAME)
}

export function renderPruneJournal(runs: readonly PrunedRun[]): string {
  return `${JSON.stringify({ prune_version: 1, runs })}\n`
}

/** The runs of an unfinished prune, or undefined when there is none (or the journal is not one: it is left out, and removed). */
export function readPruneJournal(dir: string): PrunedRun[] | undefined {
  const text = readTextOrNull(pruneJournalPath(dir))
  if (text === null) return undefined
  try {
    const value = JSON.parse(text) as { runs?: unknown }
    return Array.isArray(value.runs) ? (value.runs as PrunedRun[]) : []
  } catch {
    return [] // Written atomically, so never torn: a journal that does not parse was edited by hand, and names nothing to remove.
  }
}

/** The run a trace file holds: the ledger's row, or the trace of session(); undefined when it is gone or unreadable. */
function runIdIn(path: string): string | undefined {
  try {
    const fields = readTraceFields(path)
    return ledgerRunOf(fields)?.run_id ?? fields.trace_id
  } catch {
    return undefined
  }
}

/** Removes `run`'s files in order, each only while it holds the run when `check` (finishing a journal), telling `removed` of each; throws what the disk throws. */
export function removeRunFiles(dir: string, run: PrunedRun, check: boolean, removed: (file: string) => void): void {
  for (const file of run.files) {
    const path = join(dir, file)
    if (check && runIdIn(path) !== run.run_id) continue
    rmSync(path, { force: true })
    removed(file)
  }
}

export function removePruneJournal(dir: string): void {
  rmSync(pruneJournalPath(dir), { force: true })
}
