/**
 * The ledger's outbox: a run the session reporter could not send (the ledger
 * down, or answering a status worth retrying) is kept as one file,
 * `<traceDir>/ledger-outbox/<run id>.json`, holding what it would have sent:
 * run.begin's input, run.complete's, and the trace as trace.put takes it,
 * all redacted as the trace file is. `reagent-flow ledger push` sends them.
 *
 * Beside the trace directory's `ledger/` (where a directory store started in
 * the same place keeps its runs) rather than inside it, so neither ever reads
 * the other's files.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { readTextOrNull, removeQuietly, writeAtomic } from '../storage/index.js'
import type { RunBeginInput, RunCompleteInput } from './input-types.js'

export const OUTBOX_DIR = 'ledger-outbox'

/** One unsent run, as its outbox file holds it. */
export interface SpooledRun {
  /** The ledger it was meant for. */
  ledger: string
  run_id: string
  begin: RunBeginInput
  complete: RunCompleteInput
  /** The trace file's text (trace.put's body), redacted; null when it was not written. */
  trace: string | null
  /** Why it was not sent. */
  reason: string
}

/** The outbox of the trace directory `traceDir`. */
export function outboxOf(traceDir: string): string {
  return join(traceDir, OUTBOX_DIR)
}

/** The run id as a file name: ids are the recorder's (hex, ULID); anything else is made safe. */
function fileOf(outbox: string, runId: string): string {
  return join(outbox, `${runId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`)
}

/** Keeps `run` in `outbox` (atomically: a crash leaves the old file or the new one); returns its path. */
export function spoolRun(outbox: string, run: SpooledRun): string {
  const path = fileOf(outbox, run.run_id)
  const { trace, ...rest } = run
  // The trace's text goes in as it is (it is JSON already): never parsed and rendered again.
  const head = JSON.stringify(rest, null, 2)
  writeAtomic(path, (sink) => {
    sink.write(`${head.slice(0, -2)},\n  "trace": `)
    sink.write(trace ?? 'null')
    sink.write('\n}\n')
  })
  return path
}

export interface OutboxFile {
  path: string
  run: SpooledRun | undefined
  /** Why `run` is undefined: the file is not an outbox entry. */
  problem?: string
}

function isSpooledRun(value: unknown): value is Omit<SpooledRun, 'trace'> & { trace: unknown } {
  const run = value as Partial<SpooledRun> | null
  return (
    typeof run === 'object' &&
    run !== null &&
    typeof run.ledger === 'string' &&
    typeof run.run_id === 'string' &&
    typeof run.begin === 'object' &&
    run.begin !== null &&
    typeof run.complete === 'object' &&
    run.complete !== null
  )
}

/** Every file of `outbox`, oldest name first (an absent outbox has none); one that is not an entry says why. */
export function readOutbox(outbox: string): OutboxFile[] {
  let names: string[]
  try {
    names = readdirSync(outbox).filter((name) => name.endsWith('.json'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names.sort().map((name) => {
    const path = join(outbox, name)
    const text = readTextOrNull(path)
    if (text === null) return { path, run: undefined, problem: 'removed while being read' }
    try {
      const value: unknown = JSON.parse(text)
      if (!isSpooledRun(value)) return { path, run: undefined, problem: 'not an outbox entry (needs ledger, run_id, begin and complete)' }
      return { path, run: { ...value, trace: value.trace == null ? null : JSON.stringify(value.trace) } }
    } catch (error) {
      return { path, run: undefined, problem: `not JSON: ${(error as Error).message}` }
    }
  })
}

/** Removes a sent run's file. */
export function removeSpooled(path: string): void {
  removeQuietly(path)
}
