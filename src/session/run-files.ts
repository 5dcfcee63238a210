/**
 * The files of one session: its journal while it records, and its trace
 * file when it closes. The journal is opened with the session, so a run
 * that never finishes (a killed process, a test that timed out) is on disk;
 * once the trace file is written, a completed run's journal is removed and
 * any other run's journal is kept, closed, to resume from.
 */
import { dirname, resolve } from 'node:path'
import type { RedactOption } from '../redact/index.js'
import {
  JournalWriter,
  journalPath,
  peekTraceFields,
  pieceRedactor,
  removeQuietly,
  sweepDirectory,
  traceChunks,
  writeChunks,
  type CloseRecord,
  type RecordingListener,
  type StepListener,
} from '../storage/index.js'
import { TurnFragments } from '../trace/turn-fragments.js'
import type { Trace, Turn } from '../trace/types.js'

export interface RunFileOptions {
  /** The file the trace is written to. */
  runPath: string
  redact: RedactOption | undefined
  /** Keep a journal while the session is open. */
  journal: boolean
}

/** Directories swept for what earlier runs left (once per process: a sweep reads the whole directory). */
const swept = new Set<string>()

/** Journals this process kept (failed, cancelled runs) per run file, removed once a later run of it completes. */
const keptJournals = new Map<string, Set<string>>()

export class RunFiles {
  readonly runPath: string
  readonly #redact: RedactOption | undefined
  readonly #journal: JournalWriter | undefined
  /** The file text of the turns the journal took, reused by the trace file for turns unchanged since. */
  readonly #fragments: TurnFragments | undefined

  constructor(trace: Trace, turns: readonly Turn[], options: RunFileOptions) {
    this.runPath = options.runPath
    this.#redact = options.redact
    const dir = resolve(dirname(options.runPath))
    if (!swept.has(dir)) {
      swept.add(dir)
      // Interrupted runs of earlier processes become trace files before this one writes.
      for (const journal of sweepDirectory(dir).kept) rememberKept(journal.runPath, journal.path)
    }
    const fragments = options.journal ? new TurnFragments() : undefined
    this.#journal = options.journal
      ? JournalWriter.create(journalPath(options.runPath, trace.trace_id), trace, turns, pieceRedactor(options.redact), fragments)
      : undefined
    this.#fragments = this.#journal === undefined ? undefined : fragments
  }

  /** Turn `index` changed after it was recorded (a note an adapter added): its file text is made again. */
  turnChanged(index: number): void {
    this.#fragments?.changed(index)
  }

  /** What the recorder tells as it records: the journal, if there is one. */
  get listener(): RecordingListener | undefined {
    return this.#journal
  }

  /** Where the steps the run completes go (for `resume()`): the journal, if there is one. */
  get steps(): StepListener | undefined {
    return this.#journal
  }

  /**
   * Appends what the journal still queues, now. Called before any long
   * synchronous work at the session's end (writing a recording, the trace):
   * the journal's timer cannot run while that work holds the event loop, so
   * without it a process killed during that work would lose what the run
   * recorded in its last moments (up to the whole run, for an agent that
   * never yielded).
   */
  flushJournal(): void {
    this.#journal?.flush()
  }

  /**
   * Writes the finished trace (throws `TraceFileError` when it cannot), then
   * ends the journal: removed when the run completed (with the journals of
   * earlier runs of this file kept by this process), else closed and kept.
   * The journal holds every turn before the write begins, and goes only once
   * the file is in place (an atomic rename), so a process killed at any
   * moment of the write leaves one or the other with the whole run.
   */
  write(trace: Trace): void {
    this.flushJournal()
    writeChunks(this.runPath, traceChunks(trace, { redact: this.#redact, fragments: this.#fragments }))
    const journal = this.#journal
    if (journal === undefined) return
    const status = trace.status ?? 'completed'
    if (status === 'completed') {
      journal.finish('remove')
      forgetKept(this.runPath)
      return
    }
    const close: CloseRecord = {
      kind: 'close',
      status: status === 'active' ? 'interrupted' : status,
      ended_at: trace.ended_at ?? trace.started_at,
      error: trace.error ?? null,
    }
    if (trace.interruption_reason !== undefined) close.interruption_reason = trace.interruption_reason
    journal.finish(close)
    rememberKept(this.runPath, journal.path)
  }

  /**
   * Writes the closed run's trace file again, for a field set after it was
   * written (`golden`, when a matcher compared the run with its golden);
   * not when a later run of the same name has replaced the file since.
   */
  rewrite(trace: Trace): void {
    if (peekTraceFields(this.runPath)?.trace_id !== trace.trace_id) return
    writeChunks(this.runPath, traceChunks(trace, { redact: this.#redact, fragments: this.#fragments }))
  }

  /**
   * Ends the journal without a trace file (the trace could not be written,
   * `error` says why): kept as the record of the run, which the next sweep
   * writes out as its trace file, `interrupted`.
   */
  abandon(trace: Trace, error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code
    this.#journal?.finish({
      kind: 'close',
      status: 'interrupted',
      ended_at: trace.ended_at ?? trace.started_at,
      interruption_reason: `the session ended ${trace.status ?? 'completed'}, but its trace file could not be written${typeof code === 'string' ? ` (${code})` : ''}`,
      trace_written: false,
    })
  }
}

function rememberKept(runPath: string, journal: string): void {
  const key = resolve(runPath)
  let kept = keptJournals.get(key)
  if (kept === undefined) keptJournals.set(key, (kept = new Set()))
  kept.add(journal)
}

function forgetKept(runPath: string): void {
  const key = resolve(runPath)
  const kept = keptJournals.get(key)
  if (kept === undefined) return
  keptJournals.delete(key)
  for (const journal of kept) removeQuietly(journal)
}
