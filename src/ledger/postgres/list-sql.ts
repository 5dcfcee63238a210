/**
 * run.list in SQL, with the meaning list-query.ts gives it: the same filters,
 * and the same total order (key, started_at, run_id in byte order: COLLATE
 * "C"), which the indexes of migration 4 (partitions.ts) serve, each month's
 * partition read in order and merged. A cursor's page starts past its
 * position (list-cursor.ts) and the page asks for one run more than its
 * limit, to tell whether another page follows.
 */
import type { Scope } from '../identity.js'
import { orderKeyOf, type ListQuery } from '../list-query.js'

const ORDER_COLUMN = { started: 'started_at', duration: 'duration_ms', relied_on: 'relied_on' } as const

export interface ListSql {
  page: { text: string; values: unknown[] }
  count: { text: string; values: unknown[] }
}

export function listSql(query: ListQuery, scope: Scope): ListSql {
  const values: unknown[] = [query.org, query.namespace]
  const where = ['org = $1', 'namespace = $2']
  const equal = (column: string, value: string | undefined): void => {
    if (value === undefined) return
    values.push(value)
    where.push(`${column} = $${values.length}`)
  }
  equal('agent', query.agent)
  equal('session_id', query.session_id)
  equal('agent', scope.agent)
  equal('session_id', scope.session_id)
  equal('status', query.status)
  if (query.q !== undefined) {
    // LIKE rather than strpos, so the trigram index serves it; the pattern's own wildcards are escaped.
    values.push(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    where.push(`search_text LIKE $${values.length}`)
  }
  if (query.memoryActivity !== undefined) where.push(query.memoryActivity === 'with' ? 'relied_on > 0' : 'relied_on = 0')
  if (query.grade === 'ungraded') where.push('grade IS NULL')
  else if (query.grade === 'graded') where.push('grade IS NOT NULL')
  else equal('grade', query.grade)

  const { key, descending } = orderKeyOf(query.orderBy)
  const direction = descending ? 'DESC' : 'ASC'
  const order = key === 'started' ? [] : [`${ORDER_COLUMN[key]} ${direction}`]
  order.push(`started_at ${direction}`, `run_id COLLATE "C" ${direction}`)
  const filter = where.join(' AND ')
  const pageWhere = [...where]
  const pageValues = [...values]
  if (query.after !== undefined) {
    // The runs past the cursor: one row comparison over the order's columns, which the order's index seeks to.
    const { primary, started_at: startedAt, run_id: runId } = query.after
    const columns = key === 'started' ? ['started_at', 'run_id COLLATE "C"'] : [ORDER_COLUMN[key], 'started_at', 'run_id COLLATE "C"']
    const position = key === 'started' ? [startedAt, runId] : [primary, startedAt, runId]
    const marks = position.map((value) => {
      pageValues.push(value)
      return `$${pageValues.length}`
    })
    pageWhere.push(`(${columns.join(', ')}) ${descending ? '<' : '>'} (${marks.join(', ')})`)
  }
  // One run more than the page: whether another page follows.
  pageValues.push(query.limit + 1, query.offset)
  const keyed = order.join(', ')
  return {
    page: {
      // The page's keys first (from the index alone on deep pages), then their rows: skipping 50,000 runs reads no row.
      text:
        `SELECT r.* FROM (SELECT run_id, ${[...new Set(['started_at', ORDER_COLUMN[key]])].join(', ')} FROM reagent_ledger_runs WHERE ${pageWhere.join(' AND ')} ` +
        `ORDER BY ${keyed} LIMIT $${pageValues.length - 1} OFFSET $${pageValues.length}) page ` +
        `JOIN reagent_ledger_runs r ON r.org = $1 AND r.namespace = $2 AND r.run_id = page.run_id AND r.started_at = page.started_at ORDER BY ${order.map((part) => `page.${part}`).join(', ')}`,
      values: pageValues,
    },
    count: { text: `SELECT count(*)::integer AS total FROM reagent_ledger_runs WHERE ${filter}`, values },
  }
}
