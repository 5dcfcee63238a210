/**
 * The viewer's page: picks its data (the server's API, or the JSON a report
 * embeds), draws the frame (title, colour scheme, live state), and shows the
 * page the address names. Keys: j/k step through turns; / goes to search.
 */
import type { ReportData } from '../types.js'
import { renderComparePage } from './compare-page.js'
import { fill, h, isTyping } from './dom.js'
import { renderDiffPage } from './diff-page.js'
import { formatTime } from './format.js'
import type { PageHandle } from './page.js'
import { parseRoute, runsHref } from './router.js'
import { renderRunPage } from './run-page.js'
import { renderRunsPage } from './runs-page.js'
import { embeddedSource, serverSource, type Source } from './source.js'
import { RunStore } from './store.js'
import { themeButton } from './theme.js'
import './styles.css'

function sourceOf(app: HTMLElement): Source {
  if (app.dataset.source !== 'embedded') return serverSource(app.dataset.comparison === '1')
  const data = JSON.parse(document.getElementById('reagent-data')?.textContent ?? '{}') as ReportData
  return embeddedSource(data)
}

async function start(): Promise<void> {
  const app = document.getElementById('app')!
  const source = sourceOf(app)
  const store = new RunStore(source)
  const theme = themeButton()
  const live = h('span', { class: 'live', role: 'status' })
  const main = h('main', { id: 'main', tabindex: -1 })
  fill(
    app,
    h('button', { type: 'button', class: 'skip', on: { click: () => main.focus() } }, 'Skip to content'),
    h('header', { class: 'frame' }, h('a', { href: runsHref(), class: 'brand' }, 'reagent-flow'), h('span', { class: 'dir' }), live, theme),
    main,
    h('div', { id: 'announcer', class: 'visually-hidden', aria: { live: 'polite' } }),
  )
  try {
    await store.load()
  } catch (error) {
    fill(main, h('h1', null, 'The runs could not be read'), h('p', { class: 'error-box', role: 'alert' }, (error as Error).message))
    return
  }
  fill(app.querySelector('.dir')!, store.dir)
  fill(live, source.kind === 'server' ? 'live' : `report written ${formatTime(source.generatedAt ?? 0)}`)
  live.classList.toggle('is-live', source.kind === 'server')
  store.follow()

  let page: PageHandle | undefined
  const show = (): void => {
    const route = parseRoute(location.hash)
    if (page?.follow?.(route) === true) return
    page?.cleanup()
    if (route.page === 'run') page = renderRunPage(main, store, route.id, route.turn)
    else if (route.page === 'diff') page = renderDiffPage(main, store, route.params)
    else if (route.page === 'compare') page = renderComparePage(main, source)
    else page = { cleanup: renderRunsPage(main, store, route.params) }
    const prefix = { run: route.page === 'run' ? `${route.id} · ` : '', diff: 'Diff · ', compare: 'Comparison · ', runs: '', trends: '' }[route.page]
    document.title = `${prefix}reagent-flow · ${store.dir}`
  }
  window.addEventListener('hashchange', show)
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return
    if (event.key === '/') {
      const search = document.getElementById('filter-q')
      if (search !== null) {
        event.preventDefault()
        search.focus()
      }
      return
    }
    if (page?.onKey?.(event) === true) event.preventDefault()
  })
  show()
}

void start()
