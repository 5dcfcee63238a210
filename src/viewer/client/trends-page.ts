/**
 * The Trends page: each agent's pass rate and cost (dollars, the server's
 * price table) per hour, day or week over a window, from run.stats, with
 * marks where the commit an agent ran changed. The bucket and the window
 * are in the address (#/trends?bucket=day&since=30d).
 */
import type { TrendsPayload } from '../ledger-types.js'
import { fill, h } from './dom.js'
import { formatTime } from './format.js'
import type { LedgerSource } from './ledger-source.js'
import { replaceRoute, runsHref, trendsHref } from './router.js'
import { colourOf, trendChart } from './trend-chart.js'

const BUCKETS = [
  ['hour', 'Hour'],
  ['day', 'Day'],
  ['week', 'Week'],
] as const
const WINDOWS = [
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['12w', 'Last 12 weeks'],
  ['52w', 'Last 52 weeks'],
] as const
const DEFAULTS = { bucket: 'day', since: '30d' } as const

/** Dollars as a trend reads them: three significant digits below a dollar (a run's cost is often a fraction of a cent), cents above. */
const formatDollars = (value: number): string => (value === 0 ? '$0' : Math.abs(value) < 1 ? `$${Number(value.toPrecision(3))}` : `$${value.toFixed(2)}`)

const formatPercent = (value: number): string => `${Number.isInteger(value) ? value : value.toFixed(1)}%`

function select(label: string, name: string, value: string, options: ReadonlyArray<readonly [string, string]>, onChange: (value: string) => void): HTMLElement {
  const id = `trends-${name}`
  const known = options.some(([optionValue]) => optionValue === value)
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h(
      'select',
      { id, name, on: { change: (event) => onChange((event.target as HTMLSelectElement).value) } },
      // A value the address gave that the list does not hold (since=90d) stays chosen.
      known ? null : h('option', { value, selected: true }, value),
      options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text)),
    ),
  )
}

/** A dot in a line's colour (set through the style object: the page's policy refuses style attributes). */
function swatch(colour: string): HTMLElement {
  const dot = h('span', { class: 'swatch', aria: { hidden: true } })
  dot.style.backgroundColor = colour
  return dot
}

function commitList(payload: TrendsPayload): HTMLElement | null {
  const items = payload.series.flatMap((line, i) =>
    line.commits.map((mark) =>
      h(
        'li',
        { data: { agent: line.agent, at: mark.at } },
        swatch(colourOf(i)),
        h('a', { href: runsHref({ agent: line.agent }), class: 'agent-link' }, line.agent),
        `: ${formatTime(mark.at)} `,
        h('code', null, mark.previous || '(none)'),
        ' → ',
        h('code', null, mark.commit || '(none)'),
      ),
    ),
  )
  if (items.length === 0) return null
  return h(
    'section',
    { class: 'section commit-changes', aria: { labelledby: 'commits-heading' } },
    h('h2', { id: 'commits-heading' }, 'Commit changes'),
    h('ul', null, items),
  )
}

export function renderTrendsPage(root: HTMLElement, source: LedgerSource, initial: URLSearchParams): () => void {
  const params = new URLSearchParams(initial)
  let destroy: Array<() => void> = []
  let stopped = false
  let asked = 0
  const body = h('div', { class: 'trends-body' }, h('p', { class: 'loading' }, 'Loading the trends…'))
  const clear = (): void => {
    for (const stop of destroy) stop()
    destroy = []
  }
  const set = (name: 'bucket' | 'since', value: string): void => {
    params.set(name, value)
    replaceRoute(trendsHref(params))
    void load()
  }

  let shown: TrendsPayload | undefined
  const draw = (payload: TrendsPayload): void => {
    shown = payload
    clear()
    if (payload.series.length === 0) {
      fill(body, h('p', { class: 'empty' }, `No runs since ${formatTime(Date.parse(payload.since) / 1000)}.`))
      return
    }
    const width = Math.max(320, Math.min(1100, root.clientWidth - 8))
    const passRate = trendChart(
      {
        name: 'pass-rate',
        title: 'Pass rate',
        x: payload.buckets,
        lines: payload.series.map((line) => ({
          agent: line.agent,
          values: line.pass_rate.map((rate) => (rate === null ? null : rate * 100)),
          marks: line.commits,
        })),
        format: formatPercent,
        range: [0, 100],
      },
      width,
    )
    const cost = trendChart(
      {
        name: 'cost',
        title: 'Cost (USD)',
        x: payload.buckets,
        lines: payload.series.map((line) => ({ agent: line.agent, values: line.cost_usd, marks: line.commits })),
        format: formatDollars,
      },
      width,
    )
    destroy = [passRate.destroy, cost.destroy]
    const unpriced = payload.series.reduce((sum, line) => sum + line.unpriced_turns, 0)
    fill(
      body,
      h(
        'p',
        { class: 'count' },
        `${payload.series.length} agent${payload.series.length === 1 ? '' : 's'} since ${formatTime(Date.parse(payload.since) / 1000)}, by ${payload.bucket}.`,
        payload.more_agents > 0 ? ` ${payload.more_agents} more agent${payload.more_agents === 1 ? '' : 's'} with fewer runs not drawn.` : '',
        unpriced > 0 ? ` ${unpriced} turn${unpriced === 1 ? '' : 's'} could not be priced (counted as $0).` : '',
      ),
      passRate.element,
      cost.element,
      commitList(payload),
    )
    performance.mark('reagent:trends-rendered')
  }

  const load = async (): Promise<void> => {
    const ask = ++asked
    try {
      const payload = await source.trends(params)
      if (!stopped && ask === asked) draw(payload)
    } catch (error) {
      if (stopped || ask !== asked) return
      clear()
      fill(body, h('p', { class: 'error-box', role: 'alert' }, (error as Error).message))
    }
  }

  fill(
    root,
    h('h1', null, 'Trends'),
    h(
      'form',
      { class: 'filters', aria: { label: 'Chart options' }, on: { submit: (event) => event.preventDefault() } },
      select('Bucket', 'bucket', params.get('bucket') ?? DEFAULTS.bucket, BUCKETS, (value) => set('bucket', value)),
      select('Window', 'since', params.get('since') ?? DEFAULTS.since, WINDOWS, (value) => set('since', value)),
    ),
    body,
  )
  void load()
  // The charts' canvas takes the page's text colour when drawn: drawn again when the scheme changes (the theme button, or the system's).
  const redraw = (): void => {
    if (shown !== undefined) draw(shown)
  }
  const themes = new MutationObserver(redraw)
  themes.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
  const scheme = matchMedia('(prefers-color-scheme: dark)')
  scheme.addEventListener('change', redraw)
  return () => {
    stopped = true
    themes.disconnect()
    scheme.removeEventListener('change', redraw)
    clear()
  }
}
