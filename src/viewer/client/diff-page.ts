/**
 * The Diff page: a run against its golden (by default) or any two traces,
 * aligned as `diffTraces` aligns them, with its modes and options; each
 * turn pair with its changes as JSON paths (expected → actual), word-level
 * differences in answers, token and latency deltas, links to both sides.
 * "Accept as golden" shows the command to run: the viewer never writes.
 */
import { diffWords } from 'diff'
import type { TraceChange, TurnPair } from '../../diff/types.js'
import type { Trace } from '../../trace/types.js'
import type { DiffPayload, DiffRequest } from '../types.js'
import { totalsOf, traceDeltas, turnDeltas, type TraceTotals } from './deltas.js'
import { fill, h, type Child } from './dom.js'
import { formatCount, formatDuration, oneLineJson } from './format.js'
import { jsonBlock } from './json-view.js'
import type { PageHandle } from './page.js'
import { diffHref, runHref, runsHref } from './router.js'
import type { RunStore } from './store.js'
import { VirtualList } from './virtual-list.js'

const MODES = ['strict', 'unordered', 'subset', 'superset'] as const
const ARGS = ['exact', 'subset', 'superset', 'ignore'] as const

function requestOf(params: URLSearchParams): DiffRequest {
  const get = (name: string): string | undefined => params.get(name) ?? undefined
  return { actual: params.get('actual') ?? '', expected: get('expected'), mode: get('mode'), args: get('args'), ignore: get('ignore') }
}

/** ` · 3 turns · 1,200 tokens · 1.2s`: a side's sizes, its latency only when it measured one (a golden has none). */
function sideFacts(trace: Trace, totals: TraceTotals): string {
  const latency = totals.latency === null ? '' : ` · ${formatDuration(totals.latency)}`
  return ` · ${formatCount(trace.turns.length)} turns · ${formatCount(totals.tokens)} tokens${latency}`
}

function valueView(value: unknown, label: string): Child {
  if (value === undefined) return h('span', { class: 'muted' }, '(none)')
  const text = oneLineJson(value, 400)
  return text.endsWith('…') ? h('details', null, h('summary', null, h('code', null, text)), jsonBlock(value, label, 3)) : h('code', null, text)
}

function textDiff(expected: string, actual: string): HTMLElement {
  return h(
    'div',
    { class: 'text text-diff' },
    diffWords(expected, actual).map((part) => (part.added ? h('ins', null, part.value) : part.removed ? h('del', null, part.value) : part.value)),
  )
}

function changeItem(change: TraceChange): HTMLElement {
  const sign = change.kind === 'added' ? '+' : change.kind === 'removed' ? '−' : '~'
  const isText =
    (change.subject === 'response_text' || change.subject === 'system_prompt') &&
    change.kind === 'changed' &&
    typeof change.expected === 'string' &&
    typeof change.actual === 'string'
  return h(
    'li',
    { class: `change change-${change.kind}` },
    h('span', { class: 'change-sign', aria: { label: change.kind } }, sign),
    ' ',
    change.tool === undefined ? null : [h('span', { class: 'tool-name' }, change.tool), ' '],
    h('code', { class: 'path' }, change.path),
    isText
      ? textDiff(change.expected as string, change.actual as string)
      : h(
          'div',
          { class: 'values' },
          change.kind === 'added'
            ? null
            : h('div', { class: 'expected-value' }, h('span', { class: 'label' }, 'expected '), valueView(change.expected, `expected value at ${change.path}`)),
          change.kind === 'removed'
            ? null
            : h('div', { class: 'actual-value' }, h('span', { class: 'label' }, 'actual '), valueView(change.actual, `actual value at ${change.path}`)),
        ),
  )
}

function sideSummary(trace: Trace, index: number | null): Child {
  if (index === null) return h('span', { class: 'muted' }, '—')
  const turn = trace.turns[index]
  if (turn === undefined) return null
  const calls = turn.llm_call.tool_calls.map((call) => call.name)
  return h(
    'span',
    null,
    `Turn ${turn.index}`,
    calls.length === 0 ? null : [': ', h('span', { class: 'tool-name' }, calls.join(', '))],
    turn.llm_call.response_text ? h('span', { class: 'muted' }, ' · answer') : null,
  )
}

function pairRow(payload: DiffPayload, pair: TurnPair, changes: readonly TraceChange[]): HTMLElement {
  const { expected, actual } = payload
  const before = pair.expected === null ? undefined : expected.trace.turns[pair.expected]
  const after = pair.actual === null ? undefined : actual.trace.turns[pair.actual]
  const deltas = before === undefined || after === undefined ? '' : turnDeltas(before, after)
  return h(
    'div',
    { class: `pair pair-${pair.status}` },
    h(
      'div',
      { class: 'pair-head' },
      h('span', { class: `badge pair-status-${pair.status}` }, pair.status),
      h(
        'span',
        { class: 'side expected-side' },
        pair.expected === null
          ? sideSummary(expected.trace, null)
          : h(
              'a',
              { href: runHref(expected.id, pair.expected), aria: { label: `open expected turn ${pair.expected}` } },
              sideSummary(expected.trace, pair.expected),
            ),
      ),
      h('span', { class: 'arrow', aria: { hidden: 'true' } }, '→'),
      h(
        'span',
        { class: 'side actual-side' },
        pair.actual === null
          ? sideSummary(actual.trace, null)
          : h('a', { href: runHref(actual.id, pair.actual), aria: { label: `open actual turn ${pair.actual}` } }, sideSummary(actual.trace, pair.actual)),
      ),
      deltas === '' ? null : h('span', { class: 'muted deltas' }, deltas),
    ),
    changes.length === 0 ? null : h('ul', { class: 'changes' }, changes.map(changeItem)),
  )
}

function controls(request: DiffRequest, store: RunStore): HTMLElement {
  const ids = store.runs.sort((a, b) => a.id.localeCompare(b.id))
  const field = (label: string, control: HTMLElement): HTMLElement => h('div', { class: 'field' }, h('label', { for: control.id }, label), control)
  const expected = h(
    'select',
    { id: 'diff-expected', name: 'expected' },
    h('option', { value: '', selected: !request.expected }, 'Its golden'),
    ids.map((run) => h('option', { value: run.id, selected: run.id === request.expected }, `${run.kind === 'golden' ? 'golden: ' : ''}${run.id}`)),
  )
  const actual = h(
    'select',
    { id: 'diff-actual', name: 'actual' },
    ids
      .filter((run) => run.kind === 'run' || run.id === request.actual)
      .map((run) => h('option', { value: run.id, selected: run.id === request.actual }, run.id)),
  )
  const mode = h(
    'select',
    { id: 'diff-mode', name: 'mode' },
    MODES.map((m) => h('option', { value: m, selected: (request.mode || 'strict') === m }, m)),
  )
  const args = h(
    'select',
    { id: 'diff-args', name: 'args' },
    ARGS.map((a) => h('option', { value: a, selected: (request.args || 'exact') === a }, a)),
  )
  const ignore = h('input', {
    id: 'diff-ignore',
    name: 'ignore',
    value: request.ignore ?? '',
    placeholder: 'results, search.request_id, turns[*].tool_results[*].result.at',
  })
  return h(
    'form',
    {
      class: 'filters diff-controls',
      aria: { label: 'What to compare' },
      on: {
        submit: (event) => {
          event.preventDefault()
          location.hash = diffHref({
            actual: actual.value,
            expected: expected.value,
            mode: mode.value === 'strict' ? '' : mode.value,
            args: args.value === 'exact' ? '' : args.value,
            ignore: ignore.value.trim(),
          })
        },
      },
    },
    field('Expected', expected),
    field('Actual', actual),
    field('Mode', mode),
    field('Arguments', args),
    h('div', { class: 'field grow' }, h('label', { for: 'diff-ignore' }, 'Ignore (comma-separated)'), ignore),
    h('div', { class: 'field' }, h('button', { type: 'submit' }, 'Compare')),
  )
}

function approveBox(command: string): HTMLElement {
  const code = h('code', { id: 'approve-command' }, command)
  const copy = h(
    'button',
    {
      type: 'button',
      on: {
        click: () => {
          void navigator.clipboard?.writeText(command).then(
            () => (copy.textContent = 'Copied'),
            () => window.getSelection()?.selectAllChildren(code),
          )
        },
      },
    },
    'Copy',
  )
  return h(
    'section',
    { class: 'approve', aria: { labelledby: 'approve-heading' } },
    h('h2', { id: 'approve-heading' }, 'Accept as golden'),
    h('p', null, 'The viewer never writes a golden. If this run is right, run:'),
    h('pre', null, code),
    copy,
  )
}

export function renderDiffPage(root: HTMLElement, store: RunStore, params: URLSearchParams): PageHandle {
  const request = requestOf(params)
  let stopped = false
  fill(
    root,
    h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / Diff'),
    h('h1', null, 'Diff'),
    controls(request, store),
    h('p', { class: 'loading' }, 'Comparing…'),
  )
  const load = async (): Promise<void> => {
    let payload: DiffPayload
    try {
      payload = await store.source.diff(request)
    } catch (error) {
      if (!stopped)
        fill(
          root,
          h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / Diff'),
          h('h1', null, 'Diff'),
          controls(request, store),
          h('p', { class: 'error-box', role: 'alert' }, (error as Error).message),
        )
      return
    }
    if (stopped) return
    const { diff, expected, actual } = payload
    const byPair = new Map<string, TraceChange[]>()
    for (const change of diff.changes) {
      const key = `${change.turn.expected}:${change.turn.actual}`
      byPair.set(key, [...(byPair.get(key) ?? []), change])
    }
    const before = totalsOf(expected.trace)
    const after = totalsOf(actual.trace)
    let onlyChanges = false
    const list = new VirtualList<TurnPair>({
      label: 'Aligned turns',
      estimate: 60,
      render: (pair) => pairRow(payload, pair, byPair.get(`${pair.expected}:${pair.actual}`) ?? []),
    })
    const only = h('input', {
      type: 'checkbox',
      id: 'only-changes',
      on: {
        change: () => {
          onlyChanges = only.checked
          list.setItems(onlyChanges ? diff.turns.filter((pair) => pair.status !== 'equal') : diff.turns)
        },
      },
    })
    const heading = diff.equal ? `No differences (${diff.mode})` : `${diff.changes.length} difference${diff.changes.length === 1 ? '' : 's'} (${diff.mode})`
    fill(
      root,
      h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / ', h('a', { href: runHref(actual.id) }, actual.name), ' / Diff'),
      h('h1', null, `Diff: ${actual.name}`),
      controls(request, store),
      h(
        'section',
        { class: 'diff-summary', aria: { labelledby: 'diff-heading' } },
        h('h2', { id: 'diff-heading', class: diff.equal ? 'ok' : 'error-text' }, heading),
        h(
          'ul',
          { class: 'sides' },
          h(
            'li',
            null,
            h('span', { class: 'label' }, 'expected '),
            h('a', { href: runHref(expected.id) }, expected.kind === 'golden' ? `golden ${expected.id}` : expected.id),
            sideFacts(expected.trace, before),
          ),
          h('li', null, h('span', { class: 'label' }, 'actual '), h('a', { href: runHref(actual.id) }, actual.id), sideFacts(actual.trace, after)),
          h('li', null, h('span', { class: 'label' }, 'deltas '), traceDeltas(before, after)),
        ),
      ),
      payload.approve_command === null || diff.equal ? null : approveBox(payload.approve_command),
      h(
        'section',
        { class: 'section' },
        h('h2', null, `Aligned turns (${formatCount(diff.turns.length)})`),
        h('div', { class: 'field check' }, only, h('label', { for: 'only-changes' }, 'Only turns that differ')),
        list.element,
      ),
    )
    list.setItems(diff.turns)
  }
  void load()
  return {
    cleanup() {
      stopped = true
    },
  }
}
