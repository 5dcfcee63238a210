/**
 * The trace directory as a ledger store (the embedded default): every run
 * session() wrote there is a run of the server's own org and namespace, and
 * runs begun over HTTP become trace files of their own (see run-files.ts).
 * An in-memory index, built at start from the files' ends and kept current by
 * watching the directory (src/watch), answers run.list; each operation is one
 * synchronous step over the index and an atomic file write, so operations
 * of one server never interleave. One server per directory (lock.ts).
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

  private constructor(options: DirectoryStoreOptions) {
    this.#options = options
    this.location = options.dir
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

  #visible(scope: Scope, runId: string): IndexEntry | undefined {
    const entry = this.#namespaces.get(keyOf(scope.org, scope.namespace))?.get(runId)
    return entry !== undefined && isVisible(scope, entry.run) ? entry : undefined
  }

  /** The run's trace as it is on disk, when it has one worth keeping (uploaded, or written by session()). */
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
      if (error instanceof TraceFileError) throw new StoreUnavailableError(this.kind, error, 'cannot write its files')
      throw error
    }
  }

  /** Writes `run` as a ledger file (with `trace`, or the trace it has) and indexes it. */
  #writeLedger(run: RunRecord, trace: Trace | undefined): number {
    const path = ledgerPath(this.#options.dir, run)
    const text = renderTrace(ledgerFileOf(run, trace), { redact: false })
    this.#write(path, text)
    this.#runs(run.org, run.namespace).set(indexEntry(run, path, 'ledger'))
    return Buffer.byteLength(text)
  }

  async begin(input: BeginInput, runId: string, now: number): Promise<BeginOutcome> {
    const entry = this.#runs(input.org, input.namespace).get(runId)
    if (entry === undefined) {
      const run = openedRun(input, runId, now)
      this.#writeLedger(run, undefined)
      return { kind: 'opened', run }
    }
    const next = rebegin(entry.run, input)
    if (next.kind === 'conflict') return { kind: 'conflict', run: entry.run, field: next.field }
    // Known only from the session's own files (the watch indexed its journal before run.begin arrived):
    // begun now, with a ledger file of its own, or the session's trace would close it before run.complete.
    if (entry.source === 'root') {
      const run = { ...openedRun(input, runId, now), started_at: entry.run.started_at }
      this.#writeLedger(run, undefined)
      return { kind: 'opened', run }
    }
    if (next.kind === 'unchanged') return { kind: 'existing', run: entry.run }
    this.#writeLedger(next.run, this.#traceOf(entry))
    return { kind: 'existing', run: next.run }
  }

  async complete(scope: Scope, input: CompleteInput, now: number): Promise<CompleteOutcome> {
    const entry = this.#visible(scope, input.run_id)
    const { run } = entry ?? {}
    if (run === undefined || (input.user_id !== '-' && run.user_id !== input.user_id) || (input.session_id !== '-' && run.session_id !== input.session_id)) {
      return { kind: 'not_found' }
    }
    if (run.status !== 'active') return { kind: 'closed', run }
    const trace = this.#traceOf(entry)
    const done = completedRun({ ...run, usage: trace === undefined ? run.usage : summarizeUsage(trace) }, input, now)
    this.#writeLedger(done, trace)
    return { kind: 'completed', run: done }
  }

  async get(scope: Scope, runId: string): Promise<RunRecord | undefined> {
    const entry = this.#visible(scope, runId)
    if (entry === undefined || entry.source === 'ledger') return entry?.run
    const trace = this.#traceOf(entry)
    return { ...entry.run, usage: trace === undefined ? null : summarizeUsage(trace) }
  }

  async grade(scope: Scope, target: GradeTarget, verdict: GradeVerdict, now: number): Promise<GradeOutcome> {
    const runs = this.#namespaces.get(keyOf(scope.org, scope.namespace))
    const targets = new Map<string, IndexEntry>()
    if (target.run_id !== undefined) {
      const entry = this.#visible(scope, target.run_id)
      if (entry === undefined) return { graded: [], skippedActive: 0, unchanged: 0, runNotFound: true }
      targets.set(entry.run.run_id, entry)
    }
    if (target.session_id !== undefined && runs !== undefined) {
      for (const entry of runs.values()) if (entry.run.session_id === target.session_id && isVisible(scope, entry.run)) targets.set(entry.run.run_id, entry)
    }
    const outcome: GradeOutcome = { graded: [], skippedActive: 0, unchanged: 0, runNotFound: false }
    const ordered = [...targets.values()].sort((a, b) => a.run.started_at - b.run.started_at || (a.run.run_id < b.run.run_id ? -1 : 1))
    for (const entry of ordered) {
      const action = gradeAction(entry.run, verdict)
      if (action === 'skip_active') outcome.skippedActive += 1
      else if (action === 'unchanged') outcome.unchanged += 1
      else outcome.graded.push(this.#writeGrade(entry, gradedRun(entry.run, verdict, now)))
    }
    return outcome
  }

  /** A verdict goes into the run's own file: a ledger file, or the trace session() wrote (as `reagent-flow grade` does). */
  #writeGrade(entry: IndexEntry, run: RunRecord): RunRecord {
    if (entry.source === 'ledger') {
      this.#writeLedger(run, this.#traceOf(entry))
      return run
    }
    const trace = loadTrace(entry.path)
    trace.grade = { grade: run.grade!, source: run.grade_source!, reason: run.grade_reason, ref: run.grade_ref, graded_at: run.graded_at! }
    // Written as it was read, not redacted again: a grade changes nothing else in the file.
    this.#write(entry.path, renderTrace(trace, { redact: false }))
    this.#runs(run.org, run.namespace).set(indexEntry(run, entry.path, 'root'))
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

  async putTrace(scope: Scope, runId: string, trace: Trace): Promise<TraceStored | undefined> {
    const entry = this.#visible(scope, runId)
    if (entry === undefined) return undefined
    const bytes = this.#writeLedger({ ...entry.run, usage: summarizeUsage(trace) }, trace)
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

  async close(): Promise<void> {
    this.#watch?.close()
    this.#watch = undefined
    this.#release?.()
    this.#release = undefined
  }
}
