/**
 * The team viewer's page (`reagent-flow serve`, at /ledger/): the ledger's
 * Runs, a run with its trace and its diff against a golden (the local
 * viewer's Run and Diff pages), and Trends. Its own bundle (ledger.js), so
 * the charting library stays out of the local viewer and static reports.
 */
import { fill, h, isTyping } from './dom.js'
import { renderDiffPage } from './diff-page.js'
import { renderLedgerRunPage } from './ledger-run-page.js'
import { renderLedgerRunsPage } from './ledger-runs-page.js'
import { ledgerSource } from './ledger-source.js'
import type { PageHandle } from './page.js'
import { parseRoute, runsHref, trendsHref } from './router.js'
import { RunStore } from './store.js'
import { themeButton } from './theme.js'
import { renderTrendsPage } from './trends-page.js'
import './styles.css'
import './ledger.css'

function start(): void {
  const app = document.getElementById('app')!
  const source = ledgerSource()
  const store = new RunStore(source)
  const ledger = app.dataset.ledger ?? ''
  store.dir = ledger
  const main = h('main', { id: 'main', tabindex: -1 })
  const nav = h(
    'nav',
    { class: 'sections', aria: { label: 'Pages' } },
    h('a', { href: runsHref(), data: { page: 'runs' } }, 'Runs'),
    h('a', { href: trendsHref(), data: { page: 'trends' } }, 'Trends'),
  )
  fill(
    app,
    h('button', { type: 'button', class: 'skip', on: { click: () => main.focus() } }, 'Skip to content'),
    h('header', { class: 'frame' }, h('a', { href: runsHref(), class: 'brand' }, 'reagent-flow'), nav, h('span', { class: 'dir' }, ledger), themeButton()),
    main,
    h('div', { id: 'announcer', class: 'visually-hidden', aria: { live: 'polite' } }),
  )

  let page: PageHandle | undefined
  const show = (): void => {
    const route = parseRoute(location.hash)
    if (page?.follow?.(route) === true) return
    page?.cleanup()
    if (route.page === 'run') page = renderLedgerRunPage(main, source, store, route.id, route.turn)
    else if (route.page === 'diff') page = renderDiffPage(main, store, route.params)
    else if (route.page === 'trends') page = { cleanup: renderTrendsPage(main, source, route.params) }
    else page = { cleanup: renderLedgerRunsPage(main, source, route.page === 'runs' ? route.params : new URLSearchParams()) }
    const section = route.page === 'trends' ? 'trends' : 'runs'
    for (const link of nav.querySelectorAll('a')) link.setAttribute('aria-current', link.dataset.page === section ? 'page' : 'false')
    const prefix = { run: route.page === 'run' ? `${route.id} · ` : '', diff: 'Diff · ', compare: '', runs: 'Runs · ', trends: 'Trends · ' }[route.page]
    document.title = `${prefix}reagent-flow · ${ledger}`
  }
  window.addEventListener('hashchange', show)
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return
    if (page?.onKey?.(event) === true) event.preventDefault()
  })
  show()
}

start()
