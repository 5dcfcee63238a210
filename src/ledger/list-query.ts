/**
 * run.list's filters and order, normalised once from the call, with the
 * meaning both stores implement (the directory index in JavaScript,
 * PostgreSQL in SQL) and the conformance suite checks is the same:
 *
 * - every order is total: its key, then started_at, then run_id (byte order),
 *   all ascending for `_asc` and all descending for `_desc`;
 * - duration is 0 while active; "relied on" is the number of memories_used;
 * - `q` is a lower-case substring of goal, run id or agent (searchTextOf).
 */
import type { ListInput } from './checked-input.js'
import { LedgerRequestError } from './errors.js'
import { isAny } from './identity.js'
import { MAX_LIST_LIMIT, type LIST_ORDERS } from './input-schemas.js'
import { RUN_ROW_FIELDS, type RunRecord, type RunRowField, type RunStatus } from './run-row.js'
import { searchTextOf } from './run-rules.js'

export type ListOrder = (typeof LIST_ORDERS)[number]

export interface ListQuery {
  org: string
  namespace: string
  agent?: string
  session_id?: string
  status?: RunStatus
  /** Lower case. */
  q?: string
  memoryActivity?: 'with' | 'without'
  grade?: 'ungraded' | 'graded' | 'pass' | 'fail'
  orderBy: ListOrder
  limit: number
  offset: number
  /** From a cursor: the page is the runs after this position in the order (list-cursor.ts). */
  after?: ListPosition
}

/** A place in an order: the order's key of a run (started_at itself for the started order), its started_at and run_id. */
export interface ListPosition {
  primary: number
  started_at: number
  run_id: string
}

/** The query `input` asks for: "any" filters dropped, `q` lower-cased, `limit` capped at 200 (its cursor: list-cursor.ts). */
export function listQueryOf(input: ListInput): ListQuery {
  const query: ListQuery = {
    org: input.org,
    namespace: input.namespace,
    orderBy: input.order_by,
    limit: Math.min(input.limit, MAX_LIST_LIMIT),
    offset: input.offset,
  }
  if (!isAny(input.agent)) query.agent = input.agent
  if (!isAny(input.session_id)) query.session_id = input.session_id
  if (input.status !== '') query.status = input.status
  if (input.q !== '') query.q = input.q.toLowerCase()
  if (input.memory_activity !== '') query.memoryActivity = input.memory_activity
  if (input.grade !== '') query.grade = input.grade
  return query
}

/** `fields`, checked against the run row (an unknown one is a 422 naming it), without repeats. */
export function checkFields(fields: readonly string[]): RunRowField[] {
  const known: readonly string[] = RUN_ROW_FIELDS
  fields.forEach((field, i) => {
    if (!known.includes(field)) {
      throw new LedgerRequestError(
        'invalid_input',
        `run.list: fields[${i}] ${JSON.stringify(field)} is not a run field; run fields: ${RUN_ROW_FIELDS.join(', ')} (rule: enum)`,
        {
          field: `fields[${i}]`,
          rule: 'enum',
        },
      )
    }
  })
  return [...new Set(fields)] as RunRowField[]
}

/** What both stores answer: the page, the match count unless skipsTotal, and whether a run matches after the page. */
export interface ListPage {
  runs: RunRecord[]
  total: number | null
  more: boolean
}

/** Whether `total` is left out: a page reached with a cursor, or a full page after the first (counting every match is what makes deep pages slow). */
export function skipsTotal(query: Pick<ListQuery, 'offset' | 'limit' | 'after'>, pageLength: number): boolean {
  return query.after !== undefined || (query.offset > 0 && pageLength === query.limit)
}

/** Whether any filter narrows the runs. */
export function hasFilter(query: ListQuery): boolean {
  return (
    query.agent !== undefined ||
    query.session_id !== undefined ||
    query.status !== undefined ||
    query.q !== undefined ||
    query.memoryActivity !== undefined ||
    query.grade !== undefined
  )
}

export function matches(run: RunRecord, query: ListQuery, searchText?: string): boolean {
  if (query.agent !== undefined && run.agent !== query.agent) return false
  if (query.session_id !== undefined && run.session_id !== query.session_id) return false
  if (query.status !== undefined && run.status !== query.status) return false
  if (query.grade !== undefined) {
    if (query.grade === 'ungraded' ? run.grade !== null : query.grade === 'graded' ? run.grade === null : run.grade !== query.grade) return false
  }
  if (query.memoryActivity !== undefined && run.memories_used.length > 0 !== (query.memoryActivity === 'with')) return false
  return query.q === undefined || (searchText ?? searchTextOf(run)).includes(query.q)
}

export type OrderKey = 'started' | 'duration' | 'relied_on'

export function orderKeyOf(order: ListOrder): { key: OrderKey; descending: boolean } {
  const descending = order.endsWith('_desc')
  return { key: order.slice(0, order.lastIndexOf('_')) as OrderKey, descending }
}

/** A run's key in the order by `key`. */
export function primaryOf(run: RunRecord, key: OrderKey): number {
  if (key === 'started') return run.started_at
  return key === 'duration' ? run.duration_ms : run.memories_used.length
}

/** Ascending order by `key`, then started_at, then run_id (UTF-16 code units: byte order for the ASCII of ids). */
export function compareRuns(key: OrderKey): (a: RunRecord, b: RunRecord) => number {
  return (a, b) => primaryOf(a, key) - primaryOf(b, key) || a.started_at - b.started_at || (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0)
}

/** Where `run` is against `position` in the ascending order by `key`: negative before it, 0 at it, positive after it. */
export function compareToPosition(run: RunRecord, key: OrderKey, position: ListPosition): number {
  return (
    primaryOf(run, key) - position.primary || run.started_at - position.started_at || (run.run_id < position.run_id ? -1 : run.run_id > position.run_id ? 1 : 0)
  )
}
