/**
 * The team viewer's Runs page: the ledger's runs as run.list gives them, a
 * page at a time (a cursor when the ledger hands one back, else offsets),
 * with run.list's filters and orders in the address, so a view is a link
 * (`limit` too: 50 a page unless the address says otherwise).
 */
import type { RunRow } from '../../ledger/run-row.js'
import type { LedgerRunsPayload } from '../ledger-types.js'
import { fill, h } from './dom.js'
import { formatCount, formatDuration, formatTime } from './format.js'
import type { LedgerSource } from './ledger-source.js'
import { filterSelect, statusBadge } from './parts.js'
import { replaceRoute, runHref, runsHref } from './router.js'

const PAGE_SIZE = 50
/** run.list's own cap. */
const MAX_PAGE_SIZE = 200
const STATUSES = ['active', 'completed', 'failed', 'cancelled'] as const
const GRADES = ['pass', 'fail', 'graded', 'ungraded'] as const
const ORDERS = [
  ['started_desc', 'Newest first'],
  ['started_asc', 'Oldest first'],
  ['duration_desc', 'Longest first'],
  ['duration_asc', 'Shortest first'],
] as const

const epochOf = (iso: string): number => Date.parse(iso) / 1000

/** The commit the session reporter recorded (`git_commit`), short. */
function commitOf(run: Partial<RunRow>): string | null {
  const commit = run.metadata?.git_commit
  return typeof commit === 'string' && commit !== '' ? commit.slice(0, 12) : null
}

function row(run: Partial<RunRow>): HTMLElement {
  const dash = h('span', { class: 'muted', aria: { label: 'none' } }, '—')
  const id = run.run_id ?? ''
  const commit = commitOf(run)
  return h(
    'tr',
    { data: { id } },
    h(
      'th',
      { class: 'name-cell', role: 'rowheader' },
      h('a', { href: runHref(id), class: 'run-link' }, id),
      run.goal ? h('div', { class: 'muted' }, run.goal) : null,
    ),
    h('td', { class: 'agent' }, run.agent ?? ''),
    h('td', null, run.status === undefined ? dash : statusBadge({ status: run.status, kind: 'run' })),
    h('td', null, run.grade == null ? dash : h('span', { class: `badge grade-${run.grade}`, title: run.grade_reason ?? '' }, run.grade)),
    h('td', { class: 'time' }, run.started_at === undefined ? dash : formatTime(epochOf(run.started_at))),
    h('td', { class: 'num' }, run.status === 'active' || run.duration_ms === undefined ? dash : formatDuration(run.duration_ms)),
    h('td', null, commit === null ? dash : h('code', null, commit)),
  )
}

export function renderLedgerRunsPage(root: HTMLElement, source: LedgerSource, initial: URLSearchParams): () => void {
  let params = new URLSearchParams(initial)
  let stopped = false
  let asked = 0
  const table = h('div', { class: 'runs-table-wrap' })
  const count = h('p', { class: 'count', role: 'status' })
  const pager = h('nav', { class: 'pager', aria: { label: 'Pages of runs' } })

  const go = (changes: Readonly<Record<string, string | null>>): void => {
    const next = new URLSearchParams(params)
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name)
      else next.set(name, value)
    }
    params = next
    replaceRoute(runsHref(params))
    void load()
  }
  // A filter changed: back to the first page.
  // With a cursor, the pages seen before this one, so "Previous page" goes back one (a link opened at a cursor goes back to the first).
  const earlier: Array<{ cursor: string | null; at: string | null }> = []
  const filterBy = (name: string, value: string): void => {
    earlier.length = 0
    go({ [name]: value, offset: null, cursor: null, at: null })
  }

  const textField = (label: string, name: string, placeholder: string): HTMLElement => {
    const id = `filter-${name}`
    return h(
      'div',
      { class: 'field grow' },
      h('label', { for: id }, label),
      h('input', {
        type: 'search',
        id,
        name,
        value: params.get(name) ?? '',
        placeholder,
        on: { change: (event) => filterBy(name, (event.target as HTMLInputElement).value) },
      }),
    )
  }
  const form = h(
    'form',
    { class: 'filters', role: 'search', aria: { label: 'Filter runs' }, on: { submit: (event) => event.preventDefault() } },
    textField('Search', 'q', 'goal, run id, agent'),
    textField('Agent', 'agent', 'exact agent name'),
    filterSelect('Status', 'status', params.get('status') ?? '', [['', 'Any status'], ...STATUSES.map((s) => [s, s] as const)], (v) => filterBy('status', v)),
    filterSelect('Grade', 'grade', params.get('grade') ?? '', [['', 'Any grade'], ...GRADES.map((g) => [g, g] as const)], (v) => filterBy('grade', v)),
    filterSelect('Order', 'order_by', params.get('order_by') ?? 'started_desc', ORDERS, (v) => filterBy('order_by', v)),
  )

  const pageSize = (): number => {
    const asked = Number(params.get('limit'))
    return Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_PAGE_SIZE) : PAGE_SIZE
  }

  function draw(page: LedgerRunsPayload): void {
    const limit = pageSize()
    // Where the page starts: run.list's offset, or with a cursor `at` (the page's own count; the ledger never sees it).
    const offset = Number(params.get('offset') ?? params.get('at') ?? 0)
    const first = offset + 1
    const last = offset + page.runs.length
    fill(
      count,
      page.runs.length === 0
        ? 'No runs match.'
        : `Runs ${formatCount(first)}–${formatCount(last)}${page.total === null ? '' : ` of ${formatCount(page.total)}`}`,
    )
    fill(
      table,
      page.runs.length === 0
        ? h('p', { class: 'empty' }, 'No runs in this ledger match these filters. Runs appear here as clients call run.begin.')
        : h(
            'table',
            { class: 'runs ledger-runs' },
            h('caption', { class: 'visually-hidden' }, 'Runs of the ledger'),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Run', 'Agent', 'Status', 'Grade', 'Started', 'Duration', 'Commit'].map((title) =>
                  h('th', { class: title === 'Duration' ? 'num' : undefined }, title),
                ),
              ),
            ),
            h('tbody', null, page.runs.map(row)),
          ),
    )
    const cursorPaging = page.next_cursor !== undefined
    const hasNext = cursorPaging ? page.next_cursor !== null : page.runs.length === limit && (page.total === null || last < page.total)
    const onFirst = offset === 0 && !params.has('cursor')
    fill(
      pager,
      onFirst
        ? null
        : h(
            'button',
            {
              type: 'button',
              on: {
                click: () => {
                  if (!cursorPaging) return go({ offset: String(Math.max(0, offset - limit)) })
                  const back = earlier.pop() ?? { cursor: null, at: null }
                  go({ ...back, offset: null })
                },
              },
            },
            'Previous page',
          ),
      hasNext
        ? h(
            'button',
            {
              type: 'button',
              on: {
                click: () => {
                  if (!cursorPaging) return go({ offset: String(offset + limit) })
                  earlier.push({ cursor: params.get('cursor'), at: params.get('at') })
                  go({ cursor: page.next_cursor ?? null, at: String(offset + page.runs.length) })
                },
              },
            },
            'Next page',
          )
        : null,
    )
  }

  const load = async (): Promise<void> => {
    const ask = ++asked
    const query = new URLSearchParams(params)
    query.set('limit', String(pageSize()))
    try {
      const page = await source.runsPage(query)
      if (!stopped && ask === asked) draw(page)
    } catch (error) {
      if (stopped || ask !== asked) return
      fill(count, null)
      fill(pager, null)
      fill(table, h('p', { class: 'error-box', role: 'alert' }, (error as Error).message))
    }
  }
  fill(root, h('h1', null, 'Runs'), form, count, table, pager)
  void load()
  return () => {
    stopped = true
  }
}
