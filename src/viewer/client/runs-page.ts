/**
 * The Runs page: every run and golden of the directory (grouped by test
 * file when runs have one), filtered as `run.list` filters (status, grade,
 * text), sortable by any column, with a "failing only" toggle. Filters live
 * in the address, so a filtered view can be linked to; rows update live.
 */
import type { RunSummary } from '../types.js'
import { announce, fill, h } from './dom.js'
import { formatCount, formatDuration, formatTime, formatUsd } from './format.js'
import { filterSelect, goldenBadge, markBadge, statusBadge } from './parts.js'
import { compareHref, replaceRoute, runHref, runsHref } from './router.js'
import type { RunStore } from './store.js'

const STATUSES = ['active', 'completed', 'failed', 'cancelled', 'interrupted'] as const
const GRADES = ['ungraded', 'graded', 'pass', 'fail'] as const
const KINDS = [
  ['all', 'Runs and goldens'],
  ['run', 'Runs'],
  ['golden', 'Goldens'],
] as const
const PAGE = 200

interface Column {
  key: string
  title: string
  numeric?: boolean
  value: (run: RunSummary) => number | string
}

const COLUMNS: readonly Column[] = [
  { key: 'name', title: 'Name', value: (run) => run.name.toLowerCase() },
  { key: 'status', title: 'Status', value: (run) => (run.kind === 'golden' ? 'golden' : run.status) },
  { key: 'golden', title: 'Golden', value: (run) => run.golden?.state ?? '' },
  { key: 'turns', title: 'Turns', numeric: true, value: (run) => run.turns },
  { key: 'tool_calls', title: 'Tool calls', numeric: true, value: (run) => run.tool_calls },
  { key: 'tokens', title: 'Tokens', numeric: true, value: (run) => run.tokens?.total ?? -1 },
  { key: 'cost', title: 'Cost', numeric: true, value: (run) => run.cost_usd ?? -1 },
  { key: 'duration', title: 'Duration', numeric: true, value: (run) => run.duration_ms ?? -1 },
  { key: 'replayed', title: 'Replayed', numeric: true, value: (run) => run.replayed_calls },
  { key: 'grade', title: 'Grade', value: (run) => run.grade?.grade ?? '' },
  { key: 'started', title: 'Started', numeric: true, value: (run) => run.started_at },
]

export interface RunsFilter {
  q: string
  status: string
  grade: string
  kind: string
  failing: boolean
  sort: string
  order: 'asc' | 'desc'
}

export function filterOf(params: URLSearchParams): RunsFilter {
  const sort = params.get('sort') ?? 'started'
  return {
    q: params.get('q') ?? '',
    status: params.get('status') ?? '',
    grade: params.get('grade') ?? '',
    kind: params.get('kind') ?? 'all',
    failing: params.get('failing') === '1',
    sort: COLUMNS.some((column) => column.key === sort) ? sort : 'started',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  }
}

function hrefOf(filter: RunsFilter): string {
  return runsHref({
    q: filter.q,
    status: filter.status,
    grade: filter.grade,
    kind: filter.kind === 'all' ? '' : filter.kind,
    failing: filter.failing ? '1' : '',
    sort: filter.sort === 'started' ? '' : filter.sort,
    order: filter.order === 'desc' ? '' : filter.order,
  })
}

/** The rows `filter` lets through: run.list's filters (status, grade, text in the name, trace_id or goal), and ours. */
export function matchesFilter(run: RunSummary, filter: RunsFilter): boolean {
  if (filter.kind !== 'all' && run.kind !== filter.kind) return false
  if (filter.failing && !run.failing) return false
  if (filter.status !== '' && (run.kind === 'golden' || run.status !== filter.status)) return false
  if (filter.grade !== '') {
    const verdict = run.grade?.grade
    const ok = filter.grade === 'ungraded' ? verdict === undefined : filter.grade === 'graded' ? verdict !== undefined : verdict === filter.grade
    if (!ok) return false
  }
  const needle = filter.q.trim().toLowerCase()
  if (needle === '') return true
  return [run.name, run.trace_id, run.goal ?? '', run.id, run.test_file ?? '', run.test_name ?? ''].some((text) => text.toLowerCase().includes(needle))
}

function sorted(runs: RunSummary[], filter: RunsFilter): RunSummary[] {
  const column = COLUMNS.find((c) => c.key === filter.sort) ?? COLUMNS[COLUMNS.length - 1]!
  const sign = filter.order === 'asc' ? 1 : -1
  return runs.sort((a, b) => {
    const x = column.value(a)
    const y = column.value(b)
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return sign * order || (a.id < b.id ? -1 : 1)
  })
}

function nameCell(run: RunSummary): HTMLElement {
  const sub = [run.test_name, run.goal !== run.name ? run.goal : null].filter((text): text is string => text !== null && text !== '')
  return h(
    'th',
    { class: 'name-cell', role: 'rowheader' },
    h('a', { href: runHref(run.id), class: 'run-link' }, run.name),
    sub.map((text) => h('div', { class: 'muted' }, text)),
    h('div', { class: 'file' }, run.id),
    run.injected_faults > 0 ? markBadge(`${run.injected_faults} injected`, 'injected', 'turns whose failure was injected (faults option)') : null,
    run.resumed_from !== null ? markBadge('resumed', 'resumed', `resumed from ${run.resumed_from}`) : null,
  )
}

function row(run: RunSummary, fresh: boolean): HTMLElement {
  const dash = h('span', { class: 'muted', aria: { label: 'none' } }, '—')
  return h(
    'tr',
    { class: fresh ? 'fresh' : undefined, data: { id: run.id } },
    nameCell(run),
    h('td', null, statusBadge(run), run.interruption_reason === null ? null : h('div', { class: 'muted' }, run.interruption_reason)),
    h('td', null, goldenBadge(run) ?? dash),
    h('td', { class: 'num' }, formatCount(run.turns)),
    h('td', { class: 'num' }, formatCount(run.tool_calls), run.errors > 0 ? h('div', { class: 'error-text' }, `${run.errors} failed`) : null),
    h('td', { class: 'num' }, run.tokens === null ? dash : formatCount(run.tokens.total)),
    h('td', { class: 'num' }, run.cost_usd === null ? dash : formatUsd(run.cost_usd)),
    h('td', { class: 'num' }, run.duration_ms === null || run.kind === 'golden' ? dash : formatDuration(run.duration_ms)),
    h('td', { class: 'num' }, run.replayed_calls === 0 ? dash : formatCount(run.replayed_calls)),
    h('td', null, run.grade === null ? dash : h('span', { class: `badge grade-${run.grade.grade}`, title: run.grade.reason ?? '' }, run.grade.grade)),
    h('td', { class: 'time' }, run.kind === 'golden' ? dash : formatTime(run.started_at)),
  )
}

export function renderRunsPage(root: HTMLElement, store: RunStore, params: URLSearchParams): () => void {
  let filter = filterOf(params)
  let shown = PAGE
  const table = h('div', { class: 'runs-table-wrap' })
  const count = h('p', { class: 'count', role: 'status' })
  const skipped = h('div')
  const update = (next: Partial<RunsFilter>): void => {
    filter = { ...filter, ...next }
    shown = PAGE
    replaceRoute(hrefOf(filter))
    draw()
  }
  const search = h('input', {
    type: 'search',
    id: 'filter-q',
    name: 'q',
    value: filter.q,
    placeholder: 'name, trace id, goal, test',
    on: { input: (event) => update({ q: (event.target as HTMLInputElement).value }) },
  })
  const failing = h('input', {
    type: 'checkbox',
    id: 'filter-failing',
    checked: filter.failing,
    on: { change: (event) => update({ failing: (event.target as HTMLInputElement).checked }) },
  })
  const form = h(
    'form',
    { class: 'filters', role: 'search', aria: { label: 'Filter runs' }, on: { submit: (event) => event.preventDefault() } },
    h('div', { class: 'field grow' }, h('label', { for: 'filter-q' }, 'Search'), search),
    filterSelect('Status', 'status', filter.status, [['', 'Any status'], ...STATUSES.map((s) => [s, s] as const)], (status) => update({ status })),
    filterSelect('Grade', 'grade', filter.grade, [['', 'Any grade'], ...GRADES.map((g) => [g, g] as const)], (grade) => update({ grade })),
    filterSelect('Show', 'kind', filter.kind, KINDS, (kind) => update({ kind })),
    h('div', { class: 'field check' }, failing, h('label', { for: 'filter-failing' }, 'Failing only')),
  )

  function header(): HTMLElement {
    return h(
      'thead',
      null,
      h(
        'tr',
        null,
        COLUMNS.map((column) => {
          const active = filter.sort === column.key
          const next = active && filter.order === 'desc' ? 'asc' : 'desc'
          return h(
            'th',
            { class: column.numeric === true ? 'num' : undefined, aria: { sort: active ? (filter.order === 'asc' ? 'ascending' : 'descending') : 'none' } },
            h(
              'button',
              {
                type: 'button',
                class: 'sort',
                on: { click: () => update({ sort: column.key, order: active ? next : column.numeric === true ? 'desc' : 'asc' }) },
              },
              column.title,
              active ? (filter.order === 'asc' ? ' ▲' : ' ▼') : '',
            ),
          )
        }),
      ),
    )
  }

  function draw(): void {
    const all = store.runs
    const matching = sorted(
      all.filter((run) => matchesFilter(run, filter)),
      filter,
    )
    const page = matching.slice(0, shown)
    const grouped = all.some((run) => run.test_file !== null)
    const groups = new Map<string, RunSummary[]>()
    for (const run of page) {
      const key = grouped ? (run.test_file ?? '') : ''
      groups.set(key, [...(groups.get(key) ?? []), run])
    }
    const keys = [...groups.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)))
    const bodies = keys.map((key) =>
      h(
        'tbody',
        null,
        grouped ? h('tr', { class: 'group' }, h('th', { colspan: COLUMNS.length, role: 'rowheader' }, key === '' ? 'Not in a test file' : key)) : null,
        groups.get(key)!.map((run) => row(run, store.fresh.has(run.id))),
      ),
    )
    const runs = all.filter((run) => run.kind === 'run').length
    const goldens = all.length - runs
    fill(
      count,
      `Showing ${formatCount(matching.length)} of ${formatCount(all.length)} (${formatCount(runs)} run${runs === 1 ? '' : 's'}, ${formatCount(goldens)} golden${goldens === 1 ? '' : 's'})`,
    )
    fill(
      table,
      all.length === 0
        ? h('p', { class: 'empty' }, `No runs in ${store.dir} yet. Runs appear here as tests record them.`)
        : h('table', { class: 'runs' }, h('caption', { class: 'visually-hidden' }, 'Runs and goldens'), header(), bodies),
      matching.length > shown
        ? h(
            'button',
            {
              type: 'button',
              class: 'more',
              on: {
                click: () => {
                  shown += PAGE
                  draw()
                },
              },
            },
            `Show ${Math.min(PAGE, matching.length - shown)} more of ${formatCount(matching.length - shown)}`,
          )
        : null,
    )
    fill(
      skipped,
      store.skipped.length === 0
        ? null
        : h(
            'details',
            { class: 'notice' },
            h('summary', null, `${store.skipped.length} file${store.skipped.length === 1 ? ' is' : 's are'} not a readable trace`),
            h(
              'ul',
              null,
              store.skipped.map((entry) => h('li', null, h('code', null, entry.id), ': ', entry.reason)),
            ),
          ),
    )
  }

  const compare = store.source.hasComparison
    ? h('p', { class: 'compare-link' }, h('a', { href: compareHref() }, 'Comparison with the baseline'), ': regression or noise, test by test')
    : null
  fill(root, h('h1', null, 'Runs'), compare, form, count, skipped, table)
  draw()
  const stop = store.onChange(() => {
    draw()
    if (store.fresh.size > 0) announce(`${store.fresh.size} run${store.fresh.size === 1 ? '' : 's'} updated`)
  })
  return stop
}
