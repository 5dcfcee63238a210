/**
 * Every run a trace directory holds, read at start from the files' ends (see
 * storage.readTraceFields): the traces session() wrote directly in it (runs
 * of the server's org and namespace) and the runs of the ledger's own folder,
 * `ledger/<org>/<namespace>/`. Files that are not readable runs are counted,
 * never thrown.
 */
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { listTraceFiles, readTraceFields, scanTraceDirectory } from '../../storage/index.js'
import type { RunRecord } from '../run-row.js'
import { LEDGER_FOLDER, ledgerPath, ledgerRunOf, recordedRun } from './run-files.js'
import { indexEntry, type IndexEntry } from './run-index.js'
import { keysOfFile, type KeptKeys } from './kept-keys.js'

export interface DirectoryRuns {
  /** The traces session() wrote first, then the ledger's runs. */
  entries: IndexEntry[]
  /** The trace files session() wrote (in test-file folders too): path relative to the directory -> the run id it holds. */
  rootFiles: Map<string, string>
  unreadable: number
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** The run a ledger file holds, with the idempotency keys kept with it. */
function readLedgerFile(path: string): { run: RunRecord; keys: KeptKeys | undefined } | undefined {
  try {
    const fields = readTraceFields(path)
    const run = ledgerRunOf(fields)
    return run === undefined ? undefined : { run, keys: keysOfFile(fields as Record<string, unknown>, run.org, run.namespace) }
  } catch {
    return undefined
  }
}

/**
 * The file of `run` where ledgerPath puts it now: a file an earlier version
 * named otherwise (a long id hashed to `h-<sha256>`, which a direct id can
 * also be) is moved there, unless a file is there already.
 */
function inPlace(dir: string, run: RunRecord, path: string): string {
  const expected = ledgerPath(dir, run)
  if (expected === path || existsSync(expected)) return path
  mkdirSync(dirname(expected), { recursive: true })
  renameSync(path, expected)
  return expected
}

export function readDirectoryRuns(dir: string, identity: { org: string; namespace: string }): DirectoryRuns {
  const out: DirectoryRuns = { entries: [], rootFiles: new Map(), unreadable: 0 }
  const scanned = scanTraceDirectory(dir)
  for (const { path, fields } of scanned.traces) {
    out.entries.push(indexEntry(recordedRun(fields, identity), path, 'root'))
    out.rootFiles.set(relative(dir, path).split(sep).join('/'), fields.trace_id)
  }
  out.unreadable = scanned.skipped.length
  for (const orgFolder of subfolders(join(dir, LEDGER_FOLDER))) {
    for (const folder of subfolders(orgFolder)) {
      for (const path of listTraceFiles(folder) ?? []) {
        const read = readLedgerFile(path)
        if (read === undefined) out.unreadable += 1
        else out.entries.push({ ...indexEntry(read.run, inPlace(dir, read.run, path), 'ledger'), keys: read.keys })
      }
    }
  }
  return out
}
