/**
 * The directory store's index of one namespace: its runs by id, and kept
 * sorted in each of run.list's three orders, so a page is read by walking
 * one array (forwards or backwards) instead of sorting 100,000 runs per
 * call. A change moves one entry (binary search and a splice); loading a
 * directory sorts once.
 */
import { compareRuns, compareToPosition, hasFilter, matches, orderKeyOf, type ListPage, type ListPosition, type ListQuery } from '../list-query.js'
import type { RunRecord } from '../run-row.js'
import { searchTextOf } from '../run-rules.js'
import type { Scope } from '../identity.js'
import type { KeptKeys } from './kept-keys.js'
import { statsOf, type StatsCell, type StatsQuery } from '../stats-query.js'

export interface IndexEntry {
  run: RunRecord
  /** The file the run lives in. */
  path: string
  /** `root`: a trace session() wrote in the directory; `ledger`: a run of the ledger's own folder (begun over HTTP). */
  source: 'root' | 'ledger'
  searchText: string
  /** Idempotency keys kept with the run (in its file), by scope, operation and key (see keys-in-files.ts). */
  keys?: KeptKeys | undefined
}

const KEYS = ['started', 'duration', 'relied_on'] as const
type Key = (typeof KEYS)[number]

export function indexEntry(run: RunRecord, path: string, source: IndexEntry['source']): IndexEntry {
  return { run, path, source, searchText: searchTextOf(run) }
}

export class NamespaceRuns {
  readonly #byId = new Map<string, IndexEntry>()
  readonly #sorted: Record<Key, IndexEntry[]> = { started: [], duration: [], relied_on: [] }
  readonly #compare: Record<Key, (a: IndexEntry, b: IndexEntry) => number>
  #loading = false

  constructor() {
    const compare = (key: Key) => {
      const runs = compareRuns(key)
      return (a: IndexEntry, b: IndexEntry) => runs(a.run, b.run)
    }
    this.#compare = { started: compare('started'), duration: compare('duration'), relied_on: compare('relied_on') }
  }

  get size(): number {
    return this.#byId.size
  }

  get(runId: string): IndexEntry | undefined {
    return this.#byId.get(runId)
  }

  values(): IterableIterator<IndexEntry> {
    return this.#byId.values()
  }

  /** Adds many entries without keeping the orders until `endLoad` sorts them once. */
  beginLoad(): void {
    this.#loading = true
  }

  endLoad(): void {
    this.#loading = false
    for (const key of KEYS) this.#sorted[key] = [...this.#byId.values()].sort(this.#compare[key])
  }

  set(entry: IndexEntry): void {
    const old = this.#byId.get(entry.run.run_id)
    this.#byId.set(entry.run.run_id, entry)
    if (this.#loading) return
    for (const key of KEYS) {
      const list = this.#sorted[key]
      if (old !== undefined) list.splice(this.#find(key, old), 1)
      list.splice(this.#insertionPoint(key, entry), 0, entry)
    }
  }

  delete(runId: string): void {
    const old = this.#byId.get(runId)
    if (old === undefined) return
    this.#byId.delete(runId)
    if (this.#loading) return
    for (const key of KEYS) this.#sorted[key].splice(this.#find(key, old), 1)
  }

  /** The first position whose entry does not sort before `entry`. */
  #insertionPoint(key: Key, entry: IndexEntry): number {
    const list = this.#sorted[key]
    const compare = this.#compare[key]
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (compare(list[middle]!, entry) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  /** Where `entry` itself is: orders are total (run_id last), so the insertion point holds it. */
  #find(key: Key, entry: IndexEntry): number {
    const at = this.#insertionPoint(key, entry)
    if (this.#sorted[key][at] === entry) return at
    // Not found where its keys say: an entry changed in place. Fall back to a scan rather than corrupt the order.
    return this.#sorted[key].indexOf(entry)
  }

  /** run.stats over the namespace: the runs in started order from the window's start (a binary search), so older runs are never read. */
  stats(query: StatsQuery, scope: Scope): StatsCell[] {
    const list = this.#sorted.started
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (list[middle]!.run.started_at < query.since) low = middle + 1
      else high = middle
    }
    const inWindow = function* (): Generator<RunRecord> {
      for (let n = low; n < list.length; n++) yield list[n]!.run
    }
    return statsOf(inWindow(), query, scope)
  }

  /** How many runs of the order by `key` sort before `position` (`orAt`: or at it): a binary search. */
  #countBefore(key: Key, position: ListPosition, orAt: boolean): number {
    const list = this.#sorted[key]
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const side = compareToPosition(list[middle]!.run, key, position)
      if (side < 0 || (orAt && side === 0)) low = middle + 1
      else high = middle
    }
    return low
  }

  /**
   * The page of `query` in its order, the match count (left out, null, on a
   * full page after the first and after a cursor: see skipsTotal), and
   * whether a match follows the page. `visible` is undefined when the caller
   * may see every run of the namespace. A cursor's page starts at the first
   * run past its position, found by binary search: no run before it is read.
   */
  query(query: ListQuery, visible: ((entry: IndexEntry) => boolean) | undefined): ListPage {
    const { key, descending } = orderKeyOf(query.orderBy)
    const list = this.#sorted[key]
    const at = (n: number): IndexEntry => list[descending ? list.length - 1 - n : n]!
    let start = 0
    if (query.after !== undefined) {
      start = descending ? list.length - this.#countBefore(key, query.after, false) : this.#countBefore(key, query.after, true)
    }
    const end = query.offset + query.limit
    if (visible === undefined && !hasFilter(query)) {
      // Nothing to filter: the page is a slice of the order, the count its length.
      const runs: RunRecord[] = []
      const last = Math.min(start + end, list.length)
      for (let n = start + query.offset; n < last; n++) runs.push(at(n).run)
      return { runs, total: query.after === undefined ? list.length : null, more: start + end < list.length }
    }
    // The first page counts every match; past it, the walk stops at the first match after the page.
    const counts = query.offset === 0 && query.after === undefined
    const runs: RunRecord[] = []
    let total = 0
    for (let n = start; n < list.length; n++) {
      const entry = at(n)
      if ((visible !== undefined && !visible(entry)) || !matches(entry.run, query, entry.searchText)) continue
      if (total >= end) {
        if (!counts) return { runs, total: null, more: true }
        total += 1
        continue
      }
      if (total >= query.offset) runs.push(entry.run)
      total += 1
    }
    return { runs, total: query.after === undefined ? total : null, more: total > end }
  }
}
