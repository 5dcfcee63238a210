/** Small pieces several pages show: status and golden badges, marks, the chain of agents. */
import type { RunSummary } from '../types.js'
import { h, type Child } from './dom.js'
import { GOLDEN_LABEL, STATUS_LABEL } from './format.js'
import { diffHref, runHref } from './router.js'

export function statusBadge(summary: Pick<RunSummary, 'status' | 'kind'>): HTMLElement {
  if (summary.kind === 'golden') return h('span', { class: 'badge badge-golden' }, 'golden')
  return h('span', { class: `badge status-${summary.status}` }, STATUS_LABEL[summary.status])
}

/** The run's golden state; a link to the diff when there is a golden to compare with. */
export function goldenBadge(summary: RunSummary): Child {
  const golden = summary.golden
  if (golden === null) return null
  const text = golden.state === 'differs' ? `differs (${golden.changes})` : GOLDEN_LABEL[golden.state]
  const badge = h('span', { class: `badge golden-${golden.state}` }, text)
  if (golden.id === null || golden.state === 'pending') return badge
  return h(
    'a',
    { href: diffHref({ actual: summary.id }), class: 'badge-link', aria: { label: `golden ${text}: open the diff of ${summary.name} against its golden` } },
    badge,
  )
}

export function markBadge(text: string, kind: string, title: string): HTMLElement {
  return h('span', { class: `badge mark-${kind}`, title }, text)
}

interface ChainNode {
  summary: RunSummary
  children: ChainNode[]
}

/**
 * The chain of agents `summary` belongs to, from its topmost ancestor in the
 * directory: each run's children are the runs whose parent_trace_id is its
 * trace_id, in the order they started.
 */
function chainOf(summary: RunSummary, runs: readonly RunSummary[]): { root: ChainNode; missingParent: string | null } | null {
  const byTraceId = new Map<string, RunSummary>()
  const children = new Map<string, RunSummary[]>()
  for (const run of runs) {
    if (run.kind !== 'run') continue
    byTraceId.set(run.trace_id, run)
    if (run.parent_trace_id !== null) children.set(run.parent_trace_id, [...(children.get(run.parent_trace_id) ?? []), run])
  }
  let top = summary
  const seen = new Set<string>([summary.id])
  for (;;) {
    const parent = top.parent_trace_id === null ? undefined : byTraceId.get(top.parent_trace_id)
    if (parent === undefined || seen.has(parent.id)) break
    seen.add(parent.id)
    top = parent
  }
  const linked = new Set<string>()
  const build = (run: RunSummary): ChainNode => {
    linked.add(run.id)
    const kids = (children.get(run.trace_id) ?? []).filter((kid) => !linked.has(kid.id)).sort((a, b) => a.started_at - b.started_at)
    return { summary: run, children: kids.map(build) }
  }
  const root = build(top)
  if (root.children.length === 0 && top.parent_trace_id === null) return null
  return { root, missingParent: top.parent_trace_id !== null && !byTraceId.has(top.parent_trace_id) ? top.parent_trace_id : null }
}

function chainItem(node: ChainNode, current: RunSummary): HTMLElement {
  const isCurrent = node.summary.id === current.id
  const label = h(
    'span',
    { class: 'chain-label' },
    isCurrent ? h('strong', { aria: { current: 'page' } }, node.summary.name) : h('a', { href: runHref(node.summary.id) }, node.summary.name),
    ' ',
    statusBadge(node.summary),
  )
  return h(
    'li',
    null,
    label,
    node.children.length === 0
      ? null
      : h(
          'ul',
          null,
          node.children.map((child) => chainItem(child, current)),
        ),
  )
}

/** The chain of agents as a nested list of links, or null for a run alone. */
export function chainTree(summary: RunSummary, runs: readonly RunSummary[]): HTMLElement | null {
  const chain = chainOf(summary, runs)
  if (chain === null) return null
  return h(
    'div',
    { class: 'chain' },
    chain.missingParent === null ? null : h('p', { class: 'muted' }, `Started by ${chain.missingParent}, which is not in this directory.`),
    h('ul', { class: 'chain-tree' }, chainItem(chain.root, summary)),
  )
}

/** A labelled filter of a runs page: a select of `options` ([value, text]), `value` chosen, `onChange` told of a new one. */
export function filterSelect(
  label: string,
  name: string,
  value: string,
  options: ReadonlyArray<readonly [string, string]>,
  onChange: (value: string) => void,
): HTMLElement {
  const id = `filter-${name}`
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h(
      'select',
      { id, name, on: { change: (event) => onChange((event.target as HTMLSelectElement).value) } },
      options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text)),
    ),
  )
}
