/**
 * Run sets in `reagent-flow list`: the runs of one `repeat()` share a
 * `repeat` field, and the list shows them together — on a page, the runs of
 * a set follow each other in their order (#1, #2, ...), where the first of
 * them would be, under a line that sums the whole set up, every run of it in
 * the directory counted (on this page or not).
 */
import { plural } from '../report/format-value.js'
import { repeatOf } from '../trace/repeat-field.js'
import { statusOf } from '../trace/facts.js'
import type { TraceStatus } from '../trace/types.js'
import type { RunFile } from './ledger.js'

/** A run set of `list --json`. */
export interface RunSetRow {
  id: string
  name: string
  /** Inside vitest, the run set's test key: `<test name> > <name>`; null outside. */
  test_key: string | null
  /** How many runs the set was made with. */
  of: number
  /** How many of its runs are in the directory. */
  runs: number
  /** Its runs in the directory, by status. */
  statuses: Partial<Record<TraceStatus, number>>
}

/** Where a listed run sits in its run set. */
export interface RunSetPlace {
  id: string
  index: number
  of: number
}

/** The run set of a listed run, when it belongs to one. */
export function runSetPlaceOf(run: RunFile): RunSetPlace | null {
  const field = repeatOf(run.fields)
  return field === undefined ? null : { id: field.id, index: field.index, of: field.of }
}

/**
 * `page` with the runs of each run set together, in their order, where the
 * first of them was; and the sets on the page, summed up over `all` the runs
 * of the directory.
 */
export function groupRunSets<R extends { repeat: RunSetPlace | null }>(page: readonly R[], all: readonly RunFile[]): { rows: R[]; sets: RunSetRow[] } {
  const members = new Map<string, R[]>()
  for (const row of page) {
    if (row.repeat === null) continue
    const list = members.get(row.repeat.id)
    if (list === undefined) members.set(row.repeat.id, [row])
    else list.push(row)
  }
  const rows: R[] = []
  const placed = new Set<string>()
  for (const row of page) {
    if (row.repeat === null) rows.push(row)
    else if (!placed.has(row.repeat.id)) {
      placed.add(row.repeat.id)
      rows.push(...members.get(row.repeat.id)!.sort((a, b) => a.repeat!.index - b.repeat!.index))
    }
  }
  return { rows, sets: [...members.keys()].map((id) => summarizeSet(id, all)) }
}

function summarizeSet(id: string, all: readonly RunFile[]): RunSetRow {
  const set: RunSetRow = { id, name: '', test_key: null, of: 0, runs: 0, statuses: {} }
  for (const run of all) {
    const field = repeatOf(run.fields)
    if (field?.id !== id) continue
    set.name = field.name
    set.test_key = typeof field.test_key === 'string' && field.test_key !== '' ? field.test_key : null
    set.of = Math.max(set.of, field.of)
    set.runs += 1
    const status = statusOf(run.fields)
    set.statuses[status] = (set.statuses[status] ?? 0) + 1
  }
  return set
}

/**
 * `run set "refund-agent" · 10 runs · 8 completed, 2 failed` (`9 of 10 runs`
 * when some are not in the directory); inside vitest named by its test key,
 * which tells apart the run sets of one name in two tests.
 */
export function describeRunSet(set: RunSetRow): string {
  const counts = Object.entries(set.statuses).map(([status, count]) => `${count} ${status}`)
  const runs = set.runs === set.of ? plural(set.of, 'run') : `${set.runs} of ${plural(set.of, 'run')}`
  return `run set "${set.test_key ?? set.name}" · ${runs} · ${counts.join(', ')}`
}
