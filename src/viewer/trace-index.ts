/**
 * The viewer's picture of a trace directory: a row per run and per golden
 * (see summarize.ts), each run's golden state, and the files that are not
 * readable traces; kept current by the shared directory watch, with every
 * change handed to listeners as a delta (the server sends them to pages).
 *
 *   sync()        lists the tree, re-reads the folders whose files changed
 *   #readFolder   a folder's runs as scanTraceDirectory lists them (journals
 *                 of open runs in place of the files they become), or its goldens
 *   #settle       golden states and `failing`, then the delta
 *   trace(id)     one file read whole, only if the index lists it and it is
 *                 still inside the directory (a recently read few are kept)
 *
 * Rows are read whole once per version of their file (mtime and size).
 */
import { dirname, join } from 'node:path'
import type { ModelCost } from '../trace/cost.js'
import {
  listTraceTree,
  readRun,
  readTextOrNull,
  realPathInside,
  scanTraceDirectory,
  TRACE_FILE_SUFFIX,
  treePathOf,
  unreadableReason,
  type TreeFile,
} from '../storage/index.js'
import type { Trace } from '../trace/types.js'
import { watchDirectory, type DirectoryWatch } from '../watch/directory-watch.js'
import { goldenIdsOf, goldenOf, goldenStateOf, isGoldenPath } from './golden-of.js'
import { isFailing, summarizeTrace } from './summarize.js'
import type { RunsDelta, RunsPayload, RunSummary, SkippedEntry } from './types.js'
import { PRICES_AS_OF } from '../trace/prices.js'

export interface TraceIndexOptions {
  /** The trace directory, as the user gave it (shown, and in the commands the page prints). */
  dir: string
  prices: ReadonlyMap<string, ModelCost>
  /** Keep the index current with a watch of the directory. Default: false. */
  watch?: boolean
  /** How often the watch lists the directory as well. Default: 2 s. */
  rescanMs?: number
}

interface Entry {
  summary: RunSummary
  /** The version of the file the row was read from. */
  signature: string
  /** For runs: `<run signature>|<golden id>|<golden signature>` of the golden state computed. */
  goldenKey?: string
  /** For runs: where the golden engine files this run's golden (see golden-of.ts). */
  goldenIds?: readonly string[]
}

/** A journal its writer stopped touching for this long is read again: its writer may be gone (see storage/liveness.ts). */
const QUIET_JOURNAL_MS = 3_000
const KEPT_TRACES = 4
/** The run ledger's own folder (runs begun over HTTP, of any org and namespace): not the viewer's to show. */
const LEDGER_FOLDER = 'ledger/'

/** A file's version: mtime and size, and for a journal whether its writer has been quiet (so a run whose process died is looked at again). */
function signatureOf(file: TreeFile, now: number): string {
  const quiet = file.kind === 'journal' && now - file.mtimeMs > QUIET_JOURNAL_MS ? ':quiet' : ''
  return `${file.mtimeMs}:${file.size}${quiet}`
}

function folderOf(id: string): string {
  const folder = dirname(id)
  return folder === '.' ? '' : folder
}

export class TraceIndex {
  readonly dir: string
  readonly #prices: ReadonlyMap<string, ModelCost>
  #root: string | null = null
  readonly #entries = new Map<string, Entry>()
  readonly #skipped = new Map<string, SkippedEntry>()
  /** File signatures of the last listing, by id. */
  #listed = new Map<string, string>()
  readonly #traces = new Map<string, { signature: string; trace: Trace }>()
  readonly #listeners = new Set<(delta: RunsDelta) => void>()
  #version = 0
  #watch: DirectoryWatch | undefined

  constructor(options: TraceIndexOptions) {
    this.dir = options.dir
    this.#prices = options.prices
    this.sync()
    if (options.watch === true) {
      this.#watch = watchDirectory(options.dir, {
        recursive: true,
        onChange: () => this.sync(),
        list: () => this.#listing().signatures,
        rescanMs: options.rescanMs ?? 2_000,
      })
    }
  }

  /** The price table the rows are priced with. */
  get prices(): ReadonlyMap<string, ModelCost> {
    return this.#prices
  }

  get version(): number {
    return this.#version
  }

  #listing(): { files: TreeFile[]; signatures: Map<string, string> } {
    const tree = listTraceTree(this.dir)
    this.#root = tree.root
    const now = Date.now()
    const files = tree.files.filter((file) => !file.path.startsWith(LEDGER_FOLDER))
    return { files, signatures: new Map(files.map((file) => [file.path, signatureOf(file, now)])) }
  }

  /** Reads again what changed on disk since the last sync, and tells the listeners. */
  sync(): void {
    const { signatures } = this.#listing()
    const folders = new Set<string>()
    for (const [id, signature] of signatures) if (this.#listed.get(id) !== signature) folders.add(folderOf(id))
    for (const id of this.#listed.keys()) if (!signatures.has(id)) folders.add(folderOf(id))
    this.#listed = signatures
    if (folders.size === 0) return
    const before = new Map([...this.#entries].map(([id, entry]) => [id, entry.summary]))
    const skippedBefore = JSON.stringify([...this.#skipped.values()])
    // Goldens first: a run's golden state needs them.
    const ordered = [...folders].sort((a, b) => Number(!isGoldenPath(a)) - Number(!isGoldenPath(b)))
    for (const folder of ordered) this.#readFolder(folder, signatures)
    this.#settle(before, skippedBefore)
  }

  #readFolder(folder: string, signatures: ReadonlyMap<string, string>): void {
    const inFolder = (id: string): boolean => folderOf(id) === folder
    const golden = isGoldenPath(folder)
    const present = new Set<string>()
    for (const id of this.#skipped.keys()) if (inFolder(id)) this.#skipped.delete(id)
    if (golden) {
      for (const [id, signature] of signatures) {
        if (!inFolder(id) || !id.endsWith(TRACE_FILE_SUFFIX)) continue
        present.add(id)
        this.#readFile(id, signature, 'golden')
      }
    } else if (this.#root !== null) {
      const scanned = scanTraceDirectory(join(this.#root, folder))
      for (const { path } of scanned.traces) {
        const id = treePathOf(path, this.#root)
        const signature = signatures.get(id)
        // Not in the listing: a link out of the directory, or gone since.
        if (signature === undefined) continue
        present.add(id)
        this.#readFile(id, signature, 'run')
      }
      for (const { path, reason } of scanned.skipped) this.#skipped.set(treePathOf(path, this.#root), { id: treePathOf(path, this.#root), reason })
    }
    for (const id of [...this.#entries.keys()]) if (inFolder(id) && !present.has(id)) this.#entries.delete(id)
  }

  #readFile(id: string, signature: string, kind: RunSummary['kind']): void {
    const known = this.#entries.get(id)
    if (known !== undefined && known.signature === signature) return
    try {
      const trace = this.#load(id, signature)
      const summary = summarizeTrace(trace, id, kind, this.#prices)
      this.#entries.set(id, kind === 'run' ? { summary, signature, goldenIds: goldenIdsOf(trace) } : { summary, signature })
      this.#skipped.delete(id)
    } catch (error) {
      this.#entries.delete(id)
      this.#skipped.set(id, { id, reason: unreadableReason(error) })
    }
  }

  /** Golden states and `failing` of every row, then the delta against `before`. */
  #settle(before: ReadonlyMap<string, RunSummary>, skippedBefore: string): void {
    const goldens = new Map<string, RunSummary>()
    const signatureOfId = new Map<string, string>()
    for (const [id, entry] of this.#entries) {
      signatureOfId.set(id, entry.signature)
      if (entry.summary.kind === 'golden') goldens.set(id, entry.summary)
    }
    for (const [id, entry] of this.#entries) {
      const { summary } = entry
      if (summary.kind === 'run') this.#goldenState(id, entry, goldenOf(summary, entry.goldenIds ?? [], goldens), signatureOfId)
      summary.failing = isFailing(summary)
    }
    const skipped = [...this.#skipped.values()]
    const delta: RunsDelta = { version: this.#version + 1, upsert: [], remove: [], skipped }
    for (const [id, entry] of this.#entries) {
      const old = before.get(id)
      if (old === undefined || JSON.stringify(old) !== JSON.stringify(entry.summary)) delta.upsert.push(entry.summary)
    }
    for (const id of before.keys()) if (!this.#entries.has(id)) delta.remove.push(id)
    if (delta.upsert.length === 0 && delta.remove.length === 0 && JSON.stringify(skipped) === skippedBefore) return
    this.#version = delta.version
    for (const listener of this.#listeners) listener(delta)
  }

  #goldenState(id: string, entry: Entry, golden: RunSummary | undefined, signatures: ReadonlyMap<string, string>): void {
    const summary = entry.summary
    if (golden === undefined) {
      summary.golden = { state: 'none', id: null, changes: 0 }
      return
    }
    if (summary.status === 'active') {
      summary.golden = { state: 'pending', id: golden.id, changes: 0 }
      return
    }
    const key = `${entry.signature}|${golden.id}|${signatures.get(golden.id)}`
    if (entry.goldenKey === key && summary.golden !== null) return
    const path = join(this.#root ?? this.dir, golden.id)
    let state
    try {
      state = goldenStateOf(path, readTextOrNull(path), this.#load(id, entry.signature))
    } catch {
      state = { state: 'unreadable' as const, changes: 0 }
    }
    summary.golden = { ...state, id: golden.id }
    entry.goldenKey = key
  }

  /** The file `id` read whole (a few recent ones kept); throws when it cannot be read or is not inside the directory. */
  #load(id: string, signature: string): Trace {
    const kept = this.#traces.get(id)
    if (kept !== undefined && kept.signature === signature) {
      this.#traces.delete(id)
      this.#traces.set(id, kept)
      return kept.trace
    }
    const root = this.#root
    const real = root === null ? undefined : realPathInside(join(root, id), root)
    if (real === undefined) throw new Error(`${id} is not a file inside ${this.dir}`)
    // readRun, not loadTrace: the listing this file came from has just swept its folder.
    const trace = readRun(join(root!, id))
    this.#traces.set(id, { signature, trace })
    while (this.#traces.size > KEPT_TRACES) this.#traces.delete(this.#traces.keys().next().value!)
    return trace
  }

  /** The row of `id`, or undefined when the index lists no such file. */
  get(id: string): RunSummary | undefined {
    return this.#entries.get(id)?.summary
  }

  /** The trace of a listed file, read whole; undefined when the index lists no such file. Throws when it cannot be read. */
  trace(id: string): Trace | undefined {
    const entry = this.#entries.get(id)
    return entry === undefined ? undefined : this.#load(id, entry.signature)
  }

  /** The golden file's text for a listed golden, or null. */
  goldenText(id: string): string | null {
    if (this.#entries.get(id)?.summary.kind !== 'golden' || this.#root === null) return null
    const real = realPathInside(join(this.#root, id), this.#root)
    return real === undefined ? null : readTextOrNull(real)
  }

  /** The absolute path of a listed file (for messages). */
  pathOf(id: string): string {
    return join(this.#root ?? this.dir, id)
  }

  payload(): RunsPayload {
    const runs = [...this.#entries.values()].map((entry) => entry.summary)
    return { dir: this.dir, runs, skipped: [...this.#skipped.values()], prices_as_of: PRICES_AS_OF, version: this.#version }
  }

  /** Calls `listener` with every change from now on; returns how to stop. */
  subscribe(listener: (delta: RunsDelta) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  close(): void {
    this.#watch?.close()
    this.#watch = undefined
    this.#listeners.clear()
  }
}
