/**
 * One chart of the Trends page, drawn with uPlot (decision 086): a line per
 * agent over the buckets, a gap where an agent ran nothing, and a dashed
 * mark at each bucket where the commit an agent ran changed, labelled with
 * the new commit. The figure carries what it draws as data attributes
 * (`data-x`, `data-series`, `data-marks`, and the axes' colour `data-ink`) and as a table beside it, for
 * screen readers and for tests.
 */
import uPlot from 'uplot'
import type { CommitMark } from '../ledger-types.js'
import { h } from './dom.js'
import { formatTime } from './format.js'
import 'uplot/dist/uPlot.min.css'

/** Ten colours that stay apart in both schemes (Tableau 10). */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac']

export const colourOf = (position: number): string => PALETTE[position % PALETTE.length]!

export interface ChartLine {
  agent: string
  values: Array<number | null>
  marks: CommitMark[]
}

export interface TrendChartSpec {
  /** `pass-rate`, `cost`: the figure's id and its data-chart. */
  name: string
  title: string
  /** Bucket starts, epoch seconds. */
  x: number[]
  lines: ChartLine[]
  /** How a value reads on the axis, in the legend and in the table. */
  format: (value: number) => string
  /** The y range, when it is fixed (pass rate: 0 to 100). */
  range?: [number, number]
}

const shortCommit = (commit: string): string => (commit === '' ? '(none)' : commit.slice(0, 7))

/** Dashed vertical marks with the new commit's name, in each line's colour. */
function commitMarks(lines: readonly ChartLine[]): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u
          const { top, height } = u.bbox
          ctx.save()
          ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio])
          ctx.lineWidth = devicePixelRatio
          ctx.font = `${11 * devicePixelRatio}px ui-monospace, monospace`
          ctx.textBaseline = 'top'
          lines.forEach((line, i) => {
            ctx.strokeStyle = colourOf(i)
            ctx.fillStyle = colourOf(i)
            for (const mark of line.marks) {
              const x = Math.round(u.valToPos(mark.at, 'x', true))
              ctx.beginPath()
              ctx.moveTo(x, top)
              ctx.lineTo(x, top + height)
              ctx.stroke()
              ctx.fillText(shortCommit(mark.commit), x + 3 * devicePixelRatio, top + (2 + 13 * i) * devicePixelRatio)
            }
          })
          ctx.restore()
        },
      ],
    },
  }
}

function dataTable(spec: TrendChartSpec): HTMLElement {
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', null, `${spec.title}: the numbers`),
    h(
      'table',
      { class: 'trend-table', data: { chart: spec.name } },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'Bucket (UTC)'),
          spec.lines.map((line) => h('th', { class: 'num' }, line.agent)),
        ),
      ),
      h(
        'tbody',
        null,
        spec.x.map((at, i) =>
          h(
            'tr',
            null,
            h('th', { role: 'rowheader' }, formatTime(at)),
            spec.lines.map((line) => {
              const value = line.values[i]
              return h('td', { class: 'num' }, value === null || value === undefined ? '—' : spec.format(value))
            }),
          ),
        ),
      ),
    ),
  )
}

/** The figure (title, chart, the numbers); `destroy` lets go of the chart. */
export function trendChart(spec: TrendChartSpec, width: number): { element: HTMLElement; destroy: () => void } {
  // The canvas says nothing to a screen reader: the figure names what it draws, and the table under it holds the numbers.
  const plot = h('div', {
    class: 'trend-plot',
    role: 'img',
    aria: { label: `${spec.title} of ${spec.lines.map((line) => line.agent).join(', ')} over time; the numbers are in the table below` },
  })
  const element = h(
    'figure',
    {
      class: 'trend-chart',
      id: `chart-${spec.name}`,
      data: {
        chart: spec.name,
        x: JSON.stringify(spec.x),
        series: JSON.stringify(spec.lines.map((line) => ({ agent: line.agent, values: line.values }))),
        marks: JSON.stringify(spec.lines.flatMap((line) => line.marks.map((mark) => ({ agent: line.agent, ...mark })))),
      },
    },
    h('figcaption', null, h('h2', null, spec.title)),
    plot,
    dataTable(spec),
  )
  // Canvas needs colours it can read: the page's text colour, resolved for the scheme in use (kept as data-ink).
  const ink = getComputedStyle(document.body).color
  element.dataset.ink = ink
  const grid = { stroke: 'rgba(128, 128, 128, 0.2)', width: 1 }
  const options: uPlot.Options = {
    width,
    height: 260,
    // Buckets are UTC hours, days and ISO weeks: the axis says them in UTC, as the rest of the page does.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: spec.range === undefined ? {} : { range: spec.range } },
    series: [
      { label: 'Bucket (UTC)', value: (_u, seconds) => (seconds == null ? '—' : formatTime(seconds)) },
      ...spec.lines.map((line, i) => ({
        label: line.agent,
        stroke: colourOf(i),
        width: 2,
        points: { show: true, size: 6 },
        value: (_u: uPlot, value: number | null) => (value == null ? '—' : spec.format(value)),
      })),
    ],
    axes: [
      { stroke: ink, grid, ticks: grid },
      { stroke: ink, grid, ticks: grid, size: 64, values: (_u, values) => values.map((value) => spec.format(value)) },
    ],
    plugins: [commitMarks(spec.lines)],
  }
  const chart = new uPlot(options, [spec.x, ...spec.lines.map((line) => line.values)] as uPlot.AlignedData, plot)
  return { element, destroy: () => chart.destroy() }
}
