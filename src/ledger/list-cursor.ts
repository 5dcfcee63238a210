/**
 * run.list's keyset cursor (decision 082): `next_cursor` names the last run
 * of a page by its place in the order (the order's key, started_at, run_id),
 * and a call with `cursor` answers the runs after that place. Each page then
 * costs what the first one does, on either store (an index seek in
 * PostgreSQL, a binary search in the directory index), where `offset` reads
 * and skips every run before the page; and a run that starts between two
 * pages neither shifts nor repeats the runs after the cursor.
 *
 * The cursor is opaque to clients: base64url of JSON
 * `{"order":"started_desc","after":[<key>...,<started_at>,<run_id>]}` (the
 * key only when the order is not by start). It is a position, not a
 * permission: the page after it is still filtered and scoped as the call
 * says, so a cursor edited by hand can only move where the page starts. One
 * that does not decode to a position of the call's order is a 422 naming
 * `cursor`.
 */
import type { ListInput } from './checked-input.js'
import { LedgerRequestError } from './errors.js'
import { MAX_ID } from './input-schemas.js'
import { orderKeyOf, primaryOf, type ListOrder, type ListPosition } from './list-query.js'
import type { RunRecord } from './run-row.js'

/** The cursor that continues after `run` in `order`. */
export function encodeCursor(order: ListOrder, run: RunRecord): string {
  const { key } = orderKeyOf(order)
  const after = key === 'started' ? [run.started_at, run.run_id] : [primaryOf(run, key), run.started_at, run.run_id]
  return Buffer.from(JSON.stringify({ order, after })).toString('base64url')
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

function refuse(why: string): never {
  throw new LedgerRequestError(
    'invalid_input',
    `run.list: cursor ${why}; pass the next_cursor of the page before as it came (and the same order_by), or no cursor for the first page (rule: cursor)`,
    { field: 'cursor', rule: 'cursor' },
  )
}

function parse(text: string): unknown {
  if (!BASE64URL.test(text)) refuse('is not base64url text')
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown
  } catch {
    return refuse('does not decode to a cursor of run.list')
  }
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** The position `text` names in `order`; a 422 naming `cursor` when it names none. */
function decodeCursor(order: ListOrder, text: string): ListPosition {
  const value = parse(text)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse('does not decode to a cursor of run.list')
  const { order: madeFor, after, ...rest } = value as { order?: unknown; after?: unknown }
  if (Object.keys(rest).length > 0 || !Array.isArray(after)) refuse('does not decode to a cursor of run.list')
  if (madeFor !== order) refuse(`was made for order_by ${JSON.stringify(madeFor)}, not ${JSON.stringify(order)}`)
  const { key } = orderKeyOf(order)
  const parts: unknown[] = key === 'started' ? [after[0], ...after] : after
  const [primary, startedAt, runId] = parts
  const primaryFits = key === 'started' ? isTime(primary) : isCount(primary)
  if (
    parts.length !== 3 ||
    typeof primary !== 'number' ||
    !primaryFits ||
    !isTime(startedAt) ||
    typeof runId !== 'string' ||
    runId === '' ||
    runId.length > MAX_ID
  ) {
    refuse('does not decode to a cursor of run.list')
  }
  return { primary, started_at: startedAt, run_id: runId }
}

/** The place the call's `cursor` names (undefined without one); a 422 naming `cursor` when it names none, or comes with an offset. */
export function positionOf(input: Pick<ListInput, 'cursor' | 'offset' | 'order_by'>): ListPosition | undefined {
  if (input.cursor === '') return undefined
  if (input.offset > 0) {
    throw new LedgerRequestError(
      'invalid_input',
      'run.list: cursor and offset go one or the other: a cursor continues after the page it came with, an offset counts from the first run; send offset 0 with a cursor (rule: cursor_or_offset)',
      { field: 'cursor', rule: 'cursor_or_offset' },
    )
  }
  return decodeCursor(input.order_by, input.cursor)
}
