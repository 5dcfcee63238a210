/**
 * run.list in SQL, with the meaning list-query.ts gives it: the same filters,
 * and the same total order (key, started_at, run_id in byte order: COLLATE
 * "C"), which the indexes of migrations.ts serve.
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
  const pageValues = [...values, query.limit, query.offset]
  const keyed = order.join(', ')
  return {
    page: {
      // The page's keys first (from the index alone on deep pages), then their rows: skipping 50,000 runs reads no row.
      text:
        `SELECT r.* FROM (SELECT run_id, ${[...new Set(['started_at', ORDER_COLUMN[key]])].join(', ')} FROM reagent_ledger_runs WHERE ${filter} ` +
        `ORDER BY ${keyed} LIMIT $${values.length + 1} OFFSET $${values.length + 2}) page ` +
        `JOIN reagent_ledger_runs r ON r.org = $1 AND r.namespace = $2 AND r.run_id = page.run_id ORDER BY ${order.map((part) => `page.${part}`).join(', ')}`,
      values: pageValues,
    },
    count: { text: `SELECT count(*)::integer AS total FROM reagent_ledger_runs WHERE ${filter}`, values },
  }
}
