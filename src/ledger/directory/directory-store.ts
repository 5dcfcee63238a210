/**
 * The trace directory as a ledger store (the embedded default): every run
 * session() wrote there is a run of the server's own org and namespace, and
 * runs begun over HTTP become trace files of their own (see run-files.ts).
 * An in-memory index, built at start from the files' ends and kept current by
 * watching the directory (src/watch), answers run.list. Writes (begin,
 * complete, grade) wait in a bounded queue and go in batches, one at a time:
 * each write a synchronous step over the index as the batch holds it, then
 * the batch's files written and flushed together, then the index updated;
 * trace.put takes its turn between batches, so writes of one server never
 * interleave. One server per directory (lock.ts).
 */
import { constants, mkdirSync } from 'node:fs'
import { access } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import {
  isFile,
  JOURNAL_SUFFIX,
  listTraceTree,
  NOT_RUNS,
  loadTrace,
  parseJournalName,
  readTraceFields,
  renderTrace,
  sweepDirectory,
  TRACE_FILE_SUFFIX,
  writeFileAtomic,
  prepareFilesAtomic,
} from '../../storage/index.js'
import type { TraceFields } from '../../trace/top-level.js'
import type { Trace } from '../../trace/types.js'
import { TraceFileError } from '../../errors/index.js'
import { renderResults } from '../../results/results-file.js'
import type { RunResults } from '../../results/types.js'
import { warn } from '../../warnings/warnings.js'
import { StoreUnavailableError } from '../errors.js'
import { isVisible, type Scope } from '../identity.js'
import type { ListPage, ListQuery } from '../list-query.js'
import type { RunRecord } from '../run-row.js'
import type { StatsCell, StatsQuery } from '../stats-query.js'
import type { BeginInput, CompleteInput, GradeVerdict } from '../checked-input.js'
import { completedRun, gradeAction, gradedRun, openedRun, rebegin } from '../run-rules.js'
import type { BeginOutcome, CompleteOutcome, GradeOutcome, GradeTarget, LedgerStore, PruneOutcome, PrunePolicy, TraceStored } from '../store.js'
import { baselineTests, selectPrune } from '../prune-rules.js'
import { summarizeUsage } from '../usage-summary.js'
import { lockDirectory } from './lock.js'
import { isLive, type KeyClaim, type Replayed } from '../idempotency.js'
import { DEFAULT_WRITE_QUEUE, WriteQueue, type BatchResult, type WriteQueueView } from '../write-queue.js'
import type { StoreWrite, StoreWriteResult } from '../store-writes.js'
import { callKeyOf, KEYS_FIELD, keysForFile, liveKeys, type KeptKey } from './kept-keys.js'
import { readDirectoryRuns } from './read-directory.js'
import { type PrunedRun, pruneJournalPath, readPruneJournal, removePruneJournal, removeRunFiles, renderPruneJournal } from './prune-journal.js'
import { readResultsFolder, resultsPath } from './results-files.js'
import { ledgerFileOf, ledgerPath, recordedRun } from './run-files.js'
import { indexEntry, NamespaceRuns, type IndexEntry } from './run-index.js'
import { watchDirectory, type DirectoryWatch } from '../../watch/directory-watch.js'

export interface DirectoryStoreOptions {
  dir: string
  /** The org and namespace of the runs session() writes into the directory. */
  org: string
  namespace: string
  /** Watch the directory for runs other processes write. Default: true. */
  watch?: boolean
  /** See src/watch/directory-watch.ts. */
  rescanMs?: number
  /** Writes that may wait for a batch (`serve --write-queue`). Default: DEFAULT_WRITE_QUEUE. */
  writeQueue?: number
}

/** Writes in one batch at most: its files are written and flushed together. */
const MAX_BATCH = 256
/** How often keys past their time are forgotten, in seconds. */
const KEY_SWEEP_SECONDS = 600

/** A batch being applied: the runs it changed (by runKeyOf), the files to write (rendered once, at the end), the keys it keeps; `done` once it is in the index (true) or failed (false). */
interface Stage {
  entries: Map<string, IndexEntry>
  files: Map<string, () => string>
  keys: Map<string, KeptKey>
  done: Promise<boolean>
  settle: (ok: boolean) => void
}

function newStage(): Stage {
  let settle!: (ok: boolean) => void
  const done = new Promise<boolean>((resolve) => (settle = resolve))
  return { entries: new Map(), files: new Map(), keys: new Map(), done, settle }
}

const runKeyOf = (org: string, namespace: string, runId: string): string => `${org}\u0000${namespace}\u0000${runId}`

/** The disk refusing a write (full, read-only, not permitted) is the store being unavailable. */
function unavailable(kind: string, error: unknown): unknown {
  return error instanceof TraceFileError ? new StoreUnavailableError(kind, error, 'cannot write its files') : error
}

const keyOf = (org: string, namespace: string): string => `${org}\u0000${namespace}`

/** A path (relative, `/` between folders) where session() may have written a run: not a dot file, not under golden/ or ledger/. */
function isRunPath(path: string): boolean {
  const parts = path.split('/')
  return !NOT_RUNS.has(parts[0]!) && parts.every((part) => part !== '' && !part.startsWith('.'))
}

export class DirectoryStore implements LedgerStore {
  readonly kind = 'directory'
  readonly location: string
  readonly #options: DirectoryStoreOptions
  readonly #namespaces = new Map<string, NamespaceRuns>()
  /** The root trace files (and journals of open runs) in the index: file name -> the run it holds. */
  readonly #rootFiles = new Map<string, { key: string; runId: string }>()
  /** Journals of runs being recorded: read again at every rescan, so a run whose process died turns interrupted. */
  readonly #openJournals = new Set<string>()
  /** Journals that stand for no run of the index (closed: their run is in its trace file). */
  readonly #closedJournals = new Set<string>()
  #release: (() => void) | undefined
  #watch: DirectoryWatch | undefined
  readonly #writes: WriteQueue<StoreWrite, StoreWriteResult>
  /** The idempotency keys kept in the runs' files (kept-keys.ts), by callKeyOf. */
  readonly #keys = new Map<string, KeptKey>()
  /** The batch being applied (#flush). */
  #stage: Stage | undefined
  /** Batches staged and being written, oldest first: not yet in the index. */
  readonly #committing: Stage[] = []
  /** Set while the batches staged over a failed one are being failed: the next waits for it. */
  #barrier: Promise<void> | undefined
  #sweptAt = Number.NEGATIVE_INFINITY

  private constructor(options: DirectoryStoreOptions) {
    this.#options = options
    this.location = options.dir
    // Two batches at a time: one is flushed to the disk while the next is staged and written (see #commit).
    this.#writes = new WriteQueue((writes) => this.#flush(writes), { capacity: options.writeQueue ?? DEFAULT_WRITE_QUEUE, maxBatch: MAX_BATCH, concurrency: 2 })
  }

  get writeQueue(): WriteQueueView {
    return this.#writes
  }

  /** Takes the directory's lock, indexes its runs and starts watching it. */
  static open(options: DirectoryStoreOptions): DirectoryStore {
    mkdirSync(options.dir, { recursive: true })
    const store = new DirectoryStore(options)
    store.#release = lockDirectory(options.dir)
    try {
      store.#finishUnfinishedPrune()
      store.#load()
    } catch (error) {
      store.#release()
      throw error
    }
    if (options.watch !== false) {
      store.#watch = watchDirectory(options.dir, {
        onChange: (names) => store.#refreshRootFiles(names),
        // Runs sit in test-file folders too; goldens and the ledger's own folder are not session() runs.
        recursive: true,
        accept: isRunPath,
        descend: isRunPath,
        list: () =>
          new Map(
            listTraceTree(options.dir, { stat: false })
              .files.filter((file) => isRunPath(file.path))
              .map((file) => [file.path, '']),
          ),
        known: () => store.#knownNames(),
        ...(options.rescanMs === undefined ? {} : { rescanMs: options.rescanMs }),
      })
    }
    return store
  }

  #runs(org: string, namespace: string): NamespaceRuns {
    const key = keyOf(org, namespace)
    let runs = this.#namespaces.get(key)
    if (runs === undefined) this.#namespaces.set(key, (runs = new NamespaceRuns()))
    return runs
  }

  #load(): void {
    const { entries, rootFiles, unreadable } = readDirectoryRuns(this.#options.dir, this.#options)
    const loaded = new Set<NamespaceRuns>()
    for (const entry of entries) {
      const runs = this.#runs(entry.run.org, entry.run.namespace)
      if (!loaded.has(runs)) runs.beginLoad()
      loaded.add(runs)
      // A run of the ledger's own folder wins over the trace session() wrote for the same run (a session reporting to this server).
      if (entry.source === 'root' && runs.get(entry.run.run_id)?.source === 'ledger') continue
      runs.set(entry)
      for (const [name, kept] of Object.entries(entry.keys ?? {})) this.#keys.set(name, kept)
    }
    for (const runs of loaded) runs.endLoad()
    for (const [name, runId] of rootFiles) {
      this.#rootFiles.set(name, { key: keyOf(this.#options.org, this.#options.namespace), runId })
      if (name.endsWith(JOURNAL_SUFFIX)) this.#openJournals.add(name)
    }
    if (unreadable > 0) {
      warn(
        'REAGENT_READ',
        `run ledger: ${unreadable} file(s) in ${this.#options.dir} are not readable runs and were left out; reagent-flow validate --dir <folder> names them`,
      )
    }
  }

  /** What the rescan compares the directory with: the files indexed, less the journals of open runs (read again each time). */
  #knownNames(): Set<string> {
    const names = new Set([...this.#rootFiles.keys(), ...this.#closedJournals])
    for (const name of this.#openJournals) names.delete(name)
    return names
  }

  /** Trace files before journals: a run that just closed is in its file before its journal is looked at. */
  #refreshRootFiles(names: ReadonlySet<string>): void {
    const ordered = [...names].sort((a, b) => Number(a.endsWith(JOURNAL_SUFFIX)) - Number(b.endsWith(JOURNAL_SUFFIX)))
    for (const name of ordered) this.#refreshRootFile(name)
  }

  /**
   * The run a journal stands for, as scanTraceDirectory lists it: a run being
   * recorded (active), or an interrupted one that could not be written out.
   * A journal whose writer is gone is recovered into its trace file first
   * (whose own change event indexes it); a closed journal stands for nothing.
   */
  #journalRun(path: string): TraceFields | undefined {
    const names = parseJournalName(path)
    if (names === undefined) return undefined
    const open = sweepDirectory(this.#options.dir, names.runPath).openJournals.find((journal) => journal.path === path)
    if (open === undefined) return undefined
    const { turns: _turns, ...fields } = open.trace
    return fields
  }

  /** A root trace file or journal that changed on disk: read again, or dropped when it is gone. */
  #refreshRootFile(name: string): void {
    const isJournal = name.endsWith(JOURNAL_SUFFIX)
    if (!isRunPath(name) || (!isJournal && !name.endsWith(TRACE_FILE_SUFFIX))) return
    const { dir, org, namespace } = this.#options
    const path = join(dir, name)
    const previous = this.#rootFiles.get(name)
    if (previous !== undefined) {
      const runs = this.#namespaces.get(previous.key)
      if (runs?.get(previous.runId)?.path === path) runs.delete(previous.runId)
      this.#rootFiles.delete(name)
    }
    this.#openJournals.delete(name)
    this.#closedJournals.delete(name)
    if (!isFile(path)) return
    let run: RunRecord
    try {
      const fields = isJournal ? this.#journalRun(path) : readTraceFields(path)
      if (fields === undefined) {
        this.#closedJournals.add(name)
        return
      }
      run = recordedRun(fields, { org, namespace })
    } catch {
      return // Half-written by a writer without atomic renames, or not a trace: the next change event reads it again.
    }
    const runs = this.#runs(org, namespace)
    if (isJournal) {
      this.#openJournals.add(name)
      this.#replaceOlderRun(relative(dir, parseJournalName(path)!.runPath).split(sep).join('/'), run)
    }
    this.#rootFiles.set(name, { key: keyOf(org, namespace), runId: run.run_id })
    if (runs.get(run.run_id)?.source !== 'ledger') runs.set(indexEntry(run, path, 'root'))
  }

  /** A run being recorded stands in for the earlier run its trace file holds, which that file is about to lose (as scanTraceDirectory lists them). */
  #replaceOlderRun(fileName: string, run: RunRecord): void {
    const held = this.#rootFiles.get(fileName)
    if (held === undefined || held.runId === run.run_id) return
    const runs = this.#namespaces.get(held.key)
    const entry = runs?.get(held.runId)
    if (entry !== undefined && entry.path === join(this.#options.dir, fileName) && entry.run.started_at < run.started_at) runs!.delete(held.runId)
  }

  /** The run as the batch being applied holds it, else as the index does. */
  #entry(org: string, namespace: string, runId: string): IndexEntry | undefined {
    const key = runKeyOf(org, namespace, runId)
    for (const stage of this.#staged()) {
      const entry = stage.entries.get(key)
      if (entry !== undefined) return entry
    }
    return this.#namespaces.get(keyOf(org, namespace))?.get(runId)
  }

  /** The batches not yet in the index, newest first: the one being applied, then those being written. */
  #staged(): Stage[] {
    const newestFirst = [...this.#committing].reverse()
    return this.#stage === undefined ? newestFirst : [this.#stage, ...newestFirst]
  }

  /** The answer kept under a key, in a batch not yet in the index or in the index's keys. */
  #keptAnswer(name: string): KeptKey | undefined {
    for (const stage of this.#staged()) {
      const kept = stage.keys.get(name)
      if (kept !== undefined) return kept
    }
    return this.#keys.get(name)
  }

  #visible(scope: Scope, runId: string): IndexEntry | undefined {
    const entry = this.#entry(scope.org, scope.namespace, runId)
    return entry !== undefined && isVisible(scope, entry.run) ? entry : undefined
  }

  /** The trace on disk of the run, when it has one worth keeping (uploaded, or written by session()). */
  #traceOf(entry: IndexEntry | undefined): Trace | undefined {
    if (entry === undefined || (entry.source === 'ledger' && entry.run.usage === null)) return undefined
    try {
      return loadTrace(entry.path)
    } catch {
      return undefined
    }
  }

  /** The disk refusing a write (full, read-only, not permitted) is the store being unavailable: the index is updated only after a write succeeds. */
  #write(path: string, text: string): void {
    try {
      writeFileAtomic(path, text)
    } catch (error) {
      throw unavailable(this.kind, error)
    }
  }

  /** A ledger file's text: the run's trace (or an empty one), the run under `ledger`, its live keys under `ledger_keys`. */
  #ledgerText(entry: IndexEntry, trace: Trace | undefined, now: number): string {
    const file: Record<string, unknown> = ledgerFileOf(entry.run, trace)
    const keys = keysForFile(liveKeys(entry.keys, now))
    if (keys !== undefined) file[KEYS_FIELD] = keys
    return renderTrace(file as Trace, { redact: false })
  }

  /** `run` as a ledger entry, with the keys kept with it so far. */
  #ledgerEntry(run: RunRecord): IndexEntry {
    const prior = this.#entry(run.org, run.namespace, run.run_id)
    return { ...indexEntry(run, ledgerPath(this.#options.dir, run), 'ledger'), keys: prior?.source === 'ledger' ? prior.keys : undefined }
  }

  /** `run` as a ledger file of the batch being applied: rendered once, as the batch last holds it, when the batch is written. */
  #stageLedger(stage: Stage, run: RunRecord, trace: Trace | undefined, now: number): void {
    const entry = this.#ledgerEntry(run)
    const key = runKeyOf(run.org, run.namespace, run.run_id)
    stage.entries.set(key, entry)
    stage.files.set(entry.path, () => this.#ledgerText(stage.entries.get(key)!, trace, now))
  }

  begin(input: BeginInput, runId: string, now: number, key?: KeyClaim<BeginOutcome>): Promise<BeginOutcome | Replayed> {
    return this.#writes.submit({ op: 'begin', input, runId, now, key }) as Promise<BeginOutcome | Replayed>
  }

  complete(scope: Scope, input: CompleteInput, now: number, key?: KeyClaim<CompleteOutcome>): Promise<CompleteOutcome | Replayed> {
    return this.#writes.submit({ op: 'complete', scope, input, now, key }) as Promise<CompleteOutcome | Replayed>
  }

  grade(scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome> {
    return this.#writes.submit({ op: 'grade', scope, target, verdict, now }) as Promise<GradeOutcome>
  }

  /**
   * A batch: each write applied in turn to the index as the batches before
   * it left it (a write that throws leaves the batch as it was before it),
   * then the batch committed (#commit). The disk refusing the batch's files
   * fails every write of it, and changes nothing.
   */
  async #flush(writes: StoreWrite[]): Promise<Array<BatchResult<StoreWriteResult>>> {
    await this.#afterFailure()
    const stage = newStage()
    const results: Array<BatchResult<StoreWriteResult>> = []
    this.#stage = stage
    try {
      for (const write of writes) {
        const before = { entries: new Map(stage.entries), files: new Map(stage.files), keys: new Map(stage.keys) }
        try {
          results.push({ ok: true, value: this.#apply(stage, write) })
        } catch (error) {
          Object.assign(stage, before)
          results.push({ ok: false, error })
        }
      }
    } finally {
      this.#stage = undefined
    }
    try {
      await this.#commit(stage)
    } catch (error) {
      return writes.map(() => ({ ok: false, error }))
    }
    this.#forgetOldKeys(writes[0]!.now)
    return results
  }

  /**
   * Writes a staged batch's files and flushes them (prepareFilesAtomic), while
   * the batches before it may still be doing the same; then, once the one
   * before it is in place, renames them into place and updates the index, so
   * batches reach the disk and the index in the order they were staged. A
   * batch staged over one that failed fails too (it may rest on its runs).
   */
  async #commit(stage: Stage): Promise<void> {
    const files = [...stage.files].map(([path, render]) => ({ path, text: render() }))
    const before = [...this.#committing]
    this.#committing.push(stage)
    let ok = false
    try {
      const prepared = await prepareFilesAtomic(files).catch((error: unknown) => {
        throw unavailable(this.kind, error)
      })
      if ((await Promise.all(before.map((earlier) => earlier.done))).includes(false)) {
        prepared.abandon()
        throw new StoreUnavailableError(this.kind, new Error('a batch of writes it was staged over failed'), 'cannot write its files')
      }
      await prepared.commit().catch((error: unknown) => {
        throw unavailable(this.kind, error)
      })
      for (const entry of stage.entries.values()) this.#runs(entry.run.org, entry.run.namespace).set(entry)
      for (const [name, kept] of stage.keys) this.#keys.set(name, kept)
      ok = true
    } finally {
      this.#committing.splice(this.#committing.indexOf(stage), 1)
      stage.settle(ok)
      // The batches staged over this one fail with it; the next is staged once they are done, over the index alone.
      if (!ok && this.#committing.length > 0 && this.#barrier === undefined) {
        this.#barrier = Promise.all(this.#committing.map((later) => later.done)).then(() => {
          this.#barrier = undefined
        })
      }
    }
  }

  /** Waits while batches staged over a failed one are being failed (#commit). */
  async #afterFailure(): Promise<void> {
    while (this.#barrier !== undefined) await this.#barrier
  }

  /** Keys past their time leave the memory (their files lose them at the run's next write), at most every KEY_SWEEP_SECONDS. */
  #forgetOldKeys(now: number): void {
    if (now - this.#sweptAt < KEY_SWEEP_SECONDS) return
    this.#sweptAt = now
    for (const [name, kept] of this.#keys) if (!isLive(kept.stored_at, now)) this.#keys.delete(name)
  }

  #apply(stage: Stage, write: StoreWrite): StoreWriteResult {
    switch (write.op) {
      case 'begin':
        return this.#keyed(stage, write.input, write.key, write.now, () => this.#beginStep(stage, write.input, write.runId, write.now))
      case 'complete':
        return this.#keyed(stage, write.scope, write.key, write.now, () => this.#completeStep(stage, write.scope, write.input, write.now))
      case 'grade':
        return this.#gradeStep(stage, write.scope, write.target, write.verdict, write.now)
    }
  }

  /** `step` once per key: the answer kept under it, or the step's outcome with its answer kept in the run's file. */
  #keyed<O extends BeginOutcome | CompleteOutcome>(
    stage: Stage,
    scope: { org: string; namespace: string },
    claim: KeyClaim<O> | undefined,
    now: number,
    step: () => O,
  ): O | Replayed {
    if (claim === undefined) return step()
    const name = callKeyOf(scope.org, scope.namespace, claim.operation, claim.key)
    const kept = this.#keptAnswer(name)
    if (kept !== undefined && isLive(kept.stored_at, now)) return { kind: 'replayed', kept }
    const outcome = step()
    const answer = claim.answer(outcome)
    if (answer === undefined || !('run' in outcome)) return outcome
    const { run } = outcome
    const key = runKeyOf(run.org, run.namespace, run.run_id)
    // A begin that changed nothing wrote nothing: its key gives the run's file a write of its own.
    if (!stage.entries.has(key)) {
      const current = this.#entry(run.org, run.namespace, run.run_id)!
      this.#stageLedger(stage, current.run, this.#traceOf(current), now)
    }
    const entry = stage.entries.get(key)!
    const keptKey: KeptKey = { operation: claim.operation, key: claim.key, fingerprint: claim.fingerprint, answer, stored_at: now }
    stage.entries.set(key, { ...entry, keys: { ...liveKeys(entry.keys, now), [name]: keptKey } })
    stage.keys.set(name, keptKey)
    return outcome
  }

  #beginStep(stage: Stage, input: BeginInput, runId: string, now: number): BeginOutcome {
    const entry = this.#entry(input.org, input.namespace, runId)
    if (entry === undefined) {
      const run = openedRun(input, runId, now)
      this.#stageLedger(stage, run, undefined, now)
      return { kind: 'opened', run }
    }
    const next = rebegin(entry.run, input)
    if (next.kind === 'conflict') return { kind: 'conflict', run: entry.run, field: next.field }
    // Known only from the session's own files (the watch indexed its journal before run.begin arrived):
    // begun now, with a ledger file of its own, or the session's trace would close it before run.complete.
    if (entry.source === 'root') {
      const run = { ...openedRun(input, runId, now), started_at: entry.run.started_at }
      this.#stageLedger(stage, run, undefined, now)
      return { kind: 'opened', run }
    }
    if (next.kind === 'unchanged') return { kind: 'existing', run: entry.run }
    this.#stageLedger(stage, next.run, this.#traceOf(entry), now)
    return { kind: 'existing', run: next.run }
  }

  #completeStep(stage: Stage, scope: Scope, input: CompleteInput, now: number): CompleteOutcome {
    const entry = this.#visible(scope, input.run_id)
    const { run } = entry ?? {}
    if (run === undefined || (input.user_id !== '-' && run.user_id !== input.user_id) || (input.session_id !== '-' && run.session_id !== input.session_id)) {
      return { kind: 'not_found' }
    }
    if (run.status !== 'active') return { kind: 'closed', run }
    const trace = this.#traceOf(entry)
    const done = completedRun({ ...run, usage: trace === undefined ? run.usage : summarizeUsage(trace) }, input, now)
    this.#stageLedger(stage, done, trace, now)
    return { kind: 'completed', run: done }
  }

  async get(scope: Scope, runId: string): Promise<RunRecord | undefined> {
    const entry = this.#visible(scope, runId)
    if (entry === undefined || entry.source === 'ledger') return entry?.run
    const trace = this.#traceOf(entry)
    return { ...entry.run, usage: trace === undefined ? null : summarizeUsage(trace) }
  }

  /** The namespace's runs as the batch being applied holds them. */
  #namespaceEntries(org: string, namespace: string): IndexEntry[] {
    const indexed = this.#namespaces.get(keyOf(org, namespace))
    const entries = new Map<string, IndexEntry>()
    if (indexed !== undefined) for (const entry of indexed.values()) entries.set(entry.run.run_id, entry)
    for (const stage of this.#staged().reverse()) {
      for (const entry of stage.entries.values()) if (entry.run.org === org && entry.run.namespace === namespace) entries.set(entry.run.run_id, entry)
    }
    return [...entries.values()]
  }

  #gradeStep(stage: Stage, scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): GradeOutcome {
    const targets = new Map<string, IndexEntry>()
    if (target.run_id !== undefined) {
      const entry = this.#visible(scope, target.run_id)
      if (entry === undefined) return { graded: [], skippedActive: 0, unchanged: 0, runNotFound: true }
      targets.set(entry.run.run_id, entry)
    }
    if (target.session_id !== undefined) {
      for (const entry of this.#namespaceEntries(scope.org, scope.namespace)) {
        if (entry.run.session_id === target.session_id && isVisible(scope, entry.run)) targets.set(entry.run.run_id, entry)
      }
    }
    const outcome: GradeOutcome = { graded: [], skippedActive: 0, unchanged: 0, runNotFound: false }
    const ordered = [...targets.values()].sort((a, b) => a.run.started_at - b.run.started_at || (a.run.run_id < b.run.run_id ? -1 : 1))
    for (const entry of ordered) {
      const action = gradeAction(entry.run, verdict)
      if (action === 'skip_active') outcome.skippedActive += 1
      else if (action === 'unchanged') outcome.unchanged += 1
      else outcome.graded.push(this.#stageGrade(stage, entry, gradedRun(entry.run, verdict, now), now))
    }
    return outcome
  }

  /** A verdict goes into the run's own file: a ledger file, or the trace session() wrote (as `reagent-flow grade` does). */
  #stageGrade(stage: Stage, entry: IndexEntry, run: RunRecord, now: number): RunRecord {
    if (entry.source === 'ledger') {
      this.#stageLedger(stage, run, this.#traceOf(entry), now)
      return run
    }
    const trace = loadTrace(entry.path)
    trace.grade = { grade: run.grade!, source: run.grade_source!, reason: run.grade_reason, ref: run.grade_ref, graded_at: run.graded_at! }
    // Written as it was read, not redacted again: a grade changes nothing else in the file.
    const text = renderTrace(trace, { redact: false })
    stage.entries.set(runKeyOf(run.org, run.namespace, run.run_id), indexEntry(run, entry.path, 'root'))
    stage.files.set(entry.path, () => text)
    return run
  }

  async list(query: ListQuery, scope: Scope): Promise<ListPage> {
    const runs = this.#namespaces.get(keyOf(query.org, query.namespace))
    if (runs === undefined) return { runs: [], total: query.after === undefined ? 0 : null, more: false }
    const narrowed = scope.agent !== undefined || scope.session_id !== undefined
    return runs.query(query, narrowed ? (entry) => isVisible(scope, entry.run) : undefined)
  }

  async stats(query: StatsQuery, scope: Scope): Promise<StatsCell[]> {
    const runs = this.#namespaces.get(keyOf(query.org, query.namespace))
    return runs === undefined ? [] : runs.stats(query, scope)
  }

  /** A batch of its own (#commit), in order with the write batches: a run's file is never written from an older version of it. */
  async putTrace(scope: Scope, runId: string, trace: Trace): Promise<TraceStored | undefined> {
    await this.#afterFailure()
    const entry = this.#visible(scope, runId)
    if (entry === undefined) return undefined
    const stage = newStage()
    const run = { ...entry.run, usage: summarizeUsage(trace) }
    this.#stageLedger(stage, run, trace, Date.now() / 1000)
    const text = stage.files.get(ledgerPath(this.#options.dir, run))!()
    stage.files.set(ledgerPath(this.#options.dir, run), () => text)
    await this.#commit(stage)
    const bytes = Buffer.byteLength(text)
    // The run's file is the trace as text, with the run row: what it keeps is what it holds.
    return { turns: trace.turns.length, bytes, stored_bytes: bytes }
  }

  async getTrace(scope: Scope, runId: string): Promise<Trace | null | undefined> {
    const entry = this.#visible(scope, runId)
    if (entry === undefined) return undefined
    const trace = this.#traceOf(entry)
    if (trace === undefined) return null
    // A run begun over HTTP keeps its row under `ledger` in its trace file: the trace is what trace.put sent.
    const { ledger: _row, ...sent } = trace as Trace & { ledger?: unknown }
    return sent as Trace
  }

  /** Results are files of their own beside the namespace's runs (results-files.ts), read at each list: they are few, and no watch needs them. */
  async putResults(scope: Scope, resultsId: string, results: RunResults): Promise<boolean> {
    const path = resultsPath(this.#options.dir, scope, resultsId)
    if (isFile(path)) return false
    this.#write(path, renderResults(results))
    return true
  }

  async listResults(scope: Scope, branch: string | undefined, limit: number): Promise<RunResults[]> {
    return readResultsFolder(this.#options.dir, scope, branch, limit)
  }

  /**
   * One synchronous step, as every operation here: the runs to remove are
   * chosen from the index (prune-rules.ts), written to the prune journal,
   * then removed run by run, each leaving the index as its files go
   * (prune-journal.ts). A disk refusing midway is a 503; the index holds
   * exactly the runs whose files are still there, and the next prune (or
   * open) finishes the journal.
   */
  async prune(scope: Scope, policy: PrunePolicy): Promise<PruneOutcome> {
    // A dry run only counts: an unfinished prune's runs are counted again, and go at the next prune.
    const finished = policy.dryRun ? 0 : this.#finishPrune()
    const runs = this.#namespaces.get(keyOf(scope.org, scope.namespace))
    const inScope = runs === undefined ? [] : [...runs.values()].map((entry) => entry.run).filter((run) => isVisible(scope, run))
    const results = readResultsFolder(this.#options.dir, scope, undefined, Number.POSITIVE_INFINITY)
    const { remove, kept } = selectPrune(inScope, policy, baselineTests(results))
    const outcome: PruneOutcome = { removed: finished + remove.length, kept, partitionsDropped: 0 }
    if (policy.dryRun || remove.length === 0) return outcome
    const roots = this.#rootFilesByRun(keyOf(scope.org, scope.namespace))
    this.#write(pruneJournalPath(this.#options.dir), renderPruneJournal(remove.map((run) => this.#filesOf(run, roots))))
    this.#finishPrune(true)
    return outcome
  }

  /** The trace files session() wrote (and journals) of the namespace `key`, by the run they hold. */
  #rootFilesByRun(key: string): Map<string, string[]> {
    const byRun = new Map<string, string[]>()
    for (const [name, held] of this.#rootFiles) {
      if (held.key !== key) continue
      const names = byRun.get(held.runId)
      if (names === undefined) byRun.set(held.runId, [name])
      else names.push(name)
    }
    return byRun
  }

  /** The files of `run`, relative to the directory: the traces session() wrote of it first, its ledger file (or its only file) last. */
  #filesOf(run: RunRecord, roots: ReadonlyMap<string, readonly string[]>): PrunedRun {
    const own = relative(this.#options.dir, this.#runs(run.org, run.namespace).get(run.run_id)!.path).split(sep).join('/')
    const others = (roots.get(run.run_id) ?? []).filter((name) => name !== own)
    return { org: run.org, namespace: run.namespace, run_id: run.run_id, files: [...others, own] }
  }

  /**
   * Removes the runs of an unfinished prune journal, then the journal;
   * returns how many left the index (each leaves it as its files go; none
   * before the index is loaded, at open).
   * Files are checked to still hold their run only when finishing a journal
   * another process (or an earlier failure) left: a prune just planned knows them.
   */
  #finishPrune(planned = false): number {
    const { dir } = this.#options
    const journal = readPruneJournal(dir)
    if (journal === undefined) return 0
    let removed = 0
    try {
      for (const run of journal) {
        removeRunFiles(dir, run, !planned, (file) => {
          this.#rootFiles.delete(file)
          this.#openJournals.delete(file)
        })
        const runs = this.#namespaces.get(keyOf(run.org, run.namespace))
        const entry = runs?.get(run.run_id)
        if (entry !== undefined && !isFile(entry.path)) {
          runs!.delete(run.run_id)
          removed += 1
        }
      }
      removePruneJournal(dir)
      return removed
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== 'string') throw error
      throw new StoreUnavailableError(this.kind, error, 'cannot remove its files')
    }
  }

  /** At open: a prune a crash cut short is finished; a disk that refuses does not keep the store closed (each run left is whole, its ledger file removed last), and the next prune tries again. */
  #finishUnfinishedPrune(): void {
    try {
      this.#finishPrune()
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error
      warn('REAGENT_WRITE', `run ledger: an interrupted prune of ${this.#options.dir} could not be finished (${error.message}); the next prune finishes it`)
    }
  }

  /** The directory is there and this process may read and write it (a disk that is full still passes: its writes answer 503). */
  async ping(): Promise<void> {
    try {
      await access(this.#options.dir, constants.R_OK | constants.W_OK)
    } catch (error) {
      throw new StoreUnavailableError(this.kind, error)
    }
  }

  /** Answers the writes queued (a shutdown drains them), then lets go of the watch and the lock. */
  async close(): Promise<void> {
    await this.#writes.drained()
    await Promise.all(this.#committing.map((stage) => stage.done))
    this.#watch?.close()
    this.#watch = undefined
    this.#release?.()
    this.#release = undefined
  }
}
