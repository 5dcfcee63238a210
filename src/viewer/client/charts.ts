/**
 * The comparison's small charts, as inline SVG made here (decision 066: a
 * strip plot of a few hundred points needs no charting library): for a
 * numeric figure, one dot per run on a row per side with a tick at each
 * side's median; for the pass rate, a bar per side made of one cell per run,
 * the passed runs first. Like dom.ts, elements are created one by one and
 * text goes in as text nodes; nothing is parsed as markup.
 */
import type { NumericFigure } from '../../compare/types.js'
import type { RunFigures } from '../types.js'

const SVG = 'http://www.w3.org/2000/svg'
const WIDTH = 280
const LEFT = 62
const RIGHT = 10
const ROWS = { baseline: 18, current: 44 } as const
const HEIGHT = 70
const PLOT = WIDTH - LEFT - RIGHT

type Side = keyof typeof ROWS
type SvgChild = SVGElement | string

function svg(tag: string, attrs: Readonly<Record<string, string | number>>, ...children: SvgChild[]): SVGElement {
  const element = document.createElementNS(SVG, tag) as SVGElement
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value))
  for (const child of children) element.appendChild(typeof child === 'string' ? document.createTextNode(child) : child)
  return element
}

function frame(label: string, data: Readonly<Record<string, string>>, ...children: SvgChild[]): SVGElement {
  const chart = svg('svg', { class: 'chart', width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': label }, ...children)
  for (const [name, value] of Object.entries(data)) chart.setAttribute(`data-${name}`, value)
  return chart
}

function sideLabel(side: Side): SVGElement {
  return svg('text', { class: 'chart-label', x: 0, y: ROWS[side] + 4 }, side)
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * One dot per run that has `figure`, baseline above current, on one scale
 * from the smallest value of both sides to the largest. Runs at the same
 * spot are spread up and down so each stays visible.
 */
export function stripChart(
  figure: NumericFigure,
  baseline: readonly RunFigures[],
  current: readonly RunFigures[],
  show: (value: number) => string,
): SVGElement {
  const valuesOf = (runs: readonly RunFigures[]): number[] => runs.map((run) => run[figure]).filter((value): value is number => value !== undefined)
  const sides: Record<Side, number[]> = { baseline: valuesOf(baseline), current: valuesOf(current) }
  const all = [...sides.baseline, ...sides.current]
  const low = Math.min(...all)
  const high = Math.max(...all)
  const x = (value: number): number => LEFT + (high === low ? PLOT / 2 : ((value - low) / (high - low)) * PLOT)
  const marks: SVGElement[] = []
  for (const side of ['baseline', 'current'] as const) {
    const values = sides[side]
    const taken = new Map<number, number>()
    values.forEach((value, at) => {
      const cx = Math.round(x(value) * 2) / 2
      const stacked = taken.get(cx) ?? 0
      taken.set(cx, stacked + 1)
      // 0, +3, -3, +6, -6, … then round again: a column of equal values stays inside its row.
      const offset = (stacked % 7 === 0 ? 0 : Math.ceil((stacked % 7) / 2) * 3) * (stacked % 2 === 1 ? -1 : 1)
      marks.push(
        svg(
          'circle',
          { class: `run-mark run-${side}`, 'data-side': side, cx, cy: ROWS[side] + offset, r: 3 },
          svg('title', {}, `${side} run ${at + 1}: ${show(value)}`),
        ),
      )
    })
    if (values.length > 0) {
      const mx = x(median(values))
      marks.push(svg('line', { class: 'median', x1: mx, x2: mx, y1: ROWS[side] - 11, y2: ROWS[side] + 11 }))
    }
  }
  const spread = high === low ? `all ${show(low)}` : `from ${show(low)} to ${show(high)}`
  const label = `${figure}: baseline ${sides.baseline.length} runs, current ${sides.current.length} runs, ${spread}`
  return frame(
    label,
    { figure },
    sideLabel('baseline'),
    sideLabel('current'),
    svg('line', { class: 'axis', x1: LEFT, x2: LEFT + PLOT, y1: HEIGHT - 12, y2: HEIGHT - 12 }),
    ...(high === low
      ? [svg('text', { class: 'chart-tick', x: LEFT + PLOT / 2, y: HEIGHT - 1, 'text-anchor': 'middle' }, show(low))]
      : [
          svg('text', { class: 'chart-tick', x: LEFT, y: HEIGHT - 1 }, show(low)),
          svg('text', { class: 'chart-tick', x: LEFT + PLOT, y: HEIGHT - 1, 'text-anchor': 'end' }, show(high)),
        ]),
    ...marks,
  )
}

/** The pass rate: a bar per side, one cell per run (passed, then failed), cells as wide as the longer side allows. */
export function passRateChart(baseline: readonly RunFigures[], current: readonly RunFigures[]): SVGElement {
  const cell = PLOT / Math.max(1, baseline.length, current.length)
  const marks: SVGElement[] = []
  for (const side of ['baseline', 'current'] as const) {
    const runs = side === 'baseline' ? baseline : current
    const ordered = [...runs.filter((run) => run.passed), ...runs.filter((run) => !run.passed)]
    ordered.forEach((run, at) => {
      marks.push(
        svg(
          'rect',
          {
            class: `run-mark ${run.passed ? 'run-passed' : 'run-failed'}`,
            'data-side': side,
            x: LEFT + at * cell,
            y: ROWS[side] - 7,
            width: Math.max(cell - (cell > 3 ? 1 : 0), 0.5),
            height: 14,
          },
          svg('title', {}, `${side}: ${run.passed ? 'passed' : 'failed'}`),
        ),
      )
    })
  }
  const rate = (runs: readonly RunFigures[]): string => (runs.length === 0 ? 'no runs' : `${runs.filter((run) => run.passed).length} of ${runs.length} passed`)
  return frame(
    `pass rate: baseline ${rate(baseline)}, current ${rate(current)}`,
    { figure: 'pass_rate' },
    sideLabel('baseline'),
    sideLabel('current'),
    ...marks,
  )
}
