/**
 * A run of the team viewer: what the ledger knows of it (agent, status,
 * grade, session, commit, its cost priced by the server), then its trace as
 * the local viewer's Run page draws one, when the run's client sent it
 * (trace.put).
 */
import type { RunRow } from '../../ledger/run-row.js'
import type { LedgerRunPayload } from '../ledger-types.js'
import { fill, h } from './dom.js'
import { formatDuration, formatTime, formatUsd } from './format.js'
import { facts } from './json-view.js'
import type { LedgerSource } from './ledger-source.js'
import type { PageHandle } from './page.js'
import { statusBadge } from './parts.js'
import type { Route } from './router.js'
import { runsHref } from './router.js'
import { renderRunPage } from './run-page.js'
import type { RunStore } from './store.js'

const epochOf = (iso: string): number => Date.parse(iso) / 1000
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' && value !== '-' ? value : null)

function ledgerFacts(payload: LedgerRunPayload): HTMLElement {
  const run: RunRow = payload.run
  const unpriced = payload.unpriced_turns > 0 ? ` (${payload.unpriced_turns} turn${payload.unpriced_turns === 1 ? '' : 's'} unpriced)` : ''
  return h(
    'section',
    { class: 'section ledger-facts', aria: { labelledby: 'ledger-heading' } },
    h('h2', { id: 'ledger-heading' }, 'In the ledger'),
    facts([
      ['Run id', h('code', null, run.run_id)],
      ['Agent', run.agent],
      ['Status', statusBadge({ status: run.status, kind: 'run' })],
      [
        'Grade',
        run.grade === null ? null : `${run.grade}${run.grade_source ? ` by ${run.grade_source}` : ''}${run.grade_reason ? `: ${run.grade_reason}` : ''}`,
      ],
      ['Goal', text(run.goal)],
      ['Started', formatTime(epochOf(run.started_at))],
      ['Duration', run.status === 'active' ? null : formatDuration(run.duration_ms)],
      ['Cost', `${formatUsd(payload.cost_usd)}${unpriced}`],
      ['Session', text(run.session_id)],
      ['User', text(run.user_id)],
      ['Commit', text(run.metadata.git_commit) === null ? null : h('code', null, String(run.metadata.git_commit))],
      ['Branch', text(run.metadata.git_branch)],
    ]),
  )
}

export function renderLedgerRunPage(root: HTMLElement, source: LedgerSource, store: RunStore, id: string, turn: number | null): PageHandle {
  let inner: PageHandle | undefined
  let stopped = false
  fill(root, h('p', { class: 'loading' }, 'Loading the run…'))
  void source.ledgerRun(id).then(
    (payload) => {
      if (stopped) return
      const trace = h('div', { class: 'ledger-trace' })
      fill(
        root,
        payload.view === null
          ? [
              h('nav', { aria: { label: 'Breadcrumb' }, class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / ', h('span', null, id)),
              h('h1', { class: 'run-name' }, payload.run.agent),
              h('p', { class: 'empty' }, 'No trace was sent for this run (trace.put): the ledger holds its row only.'),
            ]
          : trace,
        ledgerFacts(payload),
      )
      if (payload.view !== null) inner = renderRunPage(trace, store, id, turn)
    },
    (error: unknown) => {
      if (stopped) return
      fill(
        root,
        h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs')),
        h('h1', null, 'Run not found'),
        h('p', { class: 'error-box', role: 'alert' }, (error as Error).message),
      )
    },
  )
  return {
    follow: (route: Route) => (route.page === 'run' && route.id === id && inner?.follow?.(route)) === true,
    onKey: (event) => inner?.onKey?.(event) === true,
    cleanup() {
      stopped = true
      inner?.cleanup()
    },
  }
}
