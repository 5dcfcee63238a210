/**
 * The Run page: a run's facts, its error and agent stack trace when it
 * failed, the chain of agents it belongs to, and its turns as a timeline
 * (a virtualised list: j/k step through turns, each turn has its own
 * address) beside the selected turn in full; then the whole conversation,
 * metadata and handoff context. A run of `conversation()` shows its Chat
 * before its turns (chat-view.ts). Follows the run live while it is recorded.
 */
import type { ConversationRecord } from '../../trace/types.js'
import type { Spend } from '../../trace/spend-types.js'
import type { RunPayload, RunSummary } from '../types.js'
import { CHAT_PAGE, chatSection } from './chat-view.js'
import { announce, fill, h } from './dom.js'
import { formatCount, formatDuration, formatSpend, formatTime, formatUsd } from './format.js'
import { facts, jsonBlock } from './json-view.js'
import type { PageHandle } from './page.js'
import { chainTree, goldenBadge, markBadge, statusBadge } from './parts.js'
import { diffHref, replaceRoute, runHref, runsHref, type Route } from './router.js'
import type { RunStore } from './store.js'
import { messagesOf } from './trace-facts.js'
import { conversation, turnDetail, turnRow } from './turn-view.js'
import { VirtualList } from './virtual-list.js'

function header(summary: RunSummary, spend: Spend | undefined): HTMLElement {
  const tokens = summary.tokens
  return h(
    'header',
    { class: 'run-header' },
    h('nav', { aria: { label: 'Breadcrumb' }, class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs'), ' / ', h('span', null, summary.id)),
    h('h1', { class: 'run-name' }, summary.name),
    h(
      'div',
      { class: 'badges' },
      statusBadge(summary),
      goldenBadge(summary),
      summary.replayed_calls > 0 ? markBadge(`${summary.replayed_calls} replayed`, 'replayed', 'LLM calls answered from a recording') : null,
      summary.injected_faults > 0 ? markBadge(`${summary.injected_faults} injected`, 'injected', 'injected faults') : null,
    ),
    facts([
      ['Trace id', h('code', null, summary.trace_id)],
      ['File', h('code', null, summary.id)],
      ['Test file', summary.test_file],
      ['Test', summary.test_name],
      ['Goal', summary.goal],
      ['Started', summary.kind === 'golden' ? null : formatTime(summary.started_at)],
      ['Duration', summary.duration_ms === null ? null : formatDuration(summary.duration_ms)],
      ['Turns', formatCount(summary.turns)],
      ['Tool calls', `${formatCount(summary.tool_calls)}${summary.errors > 0 ? ` (${summary.errors} failed)` : ''}`],
      ['Tokens', tokens === null ? null : `${formatCount(tokens.total)} (${formatCount(tokens.input)} in / ${formatCount(tokens.output)} out)`],
      [
        'Cost',
        summary.cost_usd === null ? null : `${formatUsd(summary.cost_usd)}${summary.unpriced_turns > 0 ? ` (${summary.unpriced_turns} turns unpriced)` : ''}`,
      ],
      ['Grade', summary.grade === null ? null : `${summary.grade.grade} by ${summary.grade.source}${summary.grade.reason ? `: ${summary.grade.reason}` : ''}`],
      // Only for a run with helper runs (a simulated user, judges, simulated tools): who spent what.
      ['Spend', spend === undefined ? null : formatSpend(spend)],
      ['Stopped because', summary.interruption_reason],
      ['Resumed from', summary.resumed_from],
      ['Session', summary.session_id],
      ['User', summary.user_id],
    ]),
  )
}

function compareForm(summary: RunSummary, runs: readonly RunSummary[]): HTMLElement {
  const others = runs.filter((run) => run.id !== summary.id).sort((a, b) => a.id.localeCompare(b.id))
  const picker = h(
    'select',
    { id: 'compare-with', name: 'expected' },
    others.map((run) => h('option', { value: run.id }, `${run.kind === 'golden' ? 'golden: ' : ''}${run.id}`)),
  )
  return h(
    'form',
    {
      class: 'compare',
      on: {
        submit: (event) => {
          event.preventDefault()
          location.hash = diffHref({ expected: picker.value, actual: summary.id })
        },
      },
    },
    summary.golden?.id != null && summary.golden.state !== 'pending'
      ? h('a', { href: diffHref({ actual: summary.id }), class: 'button' }, 'Diff against its golden')
      : null,
    others.length === 0 ? null : [h('label', { for: 'compare-with' }, 'Compare with'), picker, h('button', { type: 'submit' }, 'Diff')],
  )
}

export function renderRunPage(root: HTMLElement, store: RunStore, id: string, turn: number | null): PageHandle {
  let payload: RunPayload | undefined
  let selected = turn ?? 0
  let list: VirtualList<number> | undefined
  const detail = h('div', { class: 'turn-pane', aria: { live: 'off' } })
  let stopped = false
  let chatShown = CHAT_PAGE
  fill(root, h('p', { class: 'loading' }, 'Loading the run…'))

  const select = (position: number, { scroll = true, announceIt = false } = {}): void => {
    if (payload === undefined || payload.trace.turns.length === 0) return
    const next = Math.max(0, Math.min(payload.trace.turns.length - 1, position))
    list?.rowElement(selected)?.classList.remove('selected')
    list?.rowElement(selected)?.querySelector('.turn-link')?.setAttribute('aria-current', 'false')
    selected = next
    list?.rowElement(selected)?.classList.add('selected')
    list?.rowElement(selected)?.querySelector('.turn-link')?.setAttribute('aria-current', 'true')
    replaceRoute(runHref(id, selected))
    if (scroll) list?.scrollToIndex(selected)
    fill(detail, turnDetail(payload.trace, selected))
    if (announceIt) announce(`Turn ${payload.trace.turns[selected]!.index} of ${payload.trace.turns.length}`)
  }

  /** A turn link of the chat: the turn selected, and the page brought to it, its heading focused. */
  const showTurn = (position: number): void => {
    select(position, { announceIt: true })
    const heading = detail.querySelector<HTMLElement>('#turn-heading')
    detail.scrollIntoView({ block: 'start' })
    heading?.focus({ preventScroll: true })
  }

  const chat = (record: ConversationRecord, data: RunPayload): HTMLElement => {
    const positions = new Map(data.trace.turns.map((turn, position) => [turn.index, position]))
    const userRun = record.user_trace_id === null ? undefined : store.runs.find((run) => run.kind === 'run' && run.trace_id === record.user_trace_id)
    return chatSection(record, {
      name: data.summary.name,
      positionOf: (index) => positions.get(index),
      turnHref: (position) => runHref(id, position),
      showTurn,
      userRun: userRun === undefined ? null : { href: runHref(userRun.id), name: userRun.name },
      shown: chatShown,
      onShowMore: (shown) => (chatShown = shown),
    })
  }

  const draw = (data: RunPayload, keepScroll: boolean): void => {
    const { summary, trace } = data
    const scrollTop = list?.element.scrollTop ?? 0
    list = new VirtualList<number>({
      label: `Turns of ${summary.name}`,
      estimate: 76,
      render: (position) => turnRow(trace.turns[position]!, position, id, position === selected),
    })
    const turns =
      trace.turns.length === 0
        ? h(
            'p',
            { class: 'empty' },
            summary.status === 'active' ? 'No turn recorded yet: this page follows the run as it is recorded.' : 'No turns were recorded.',
          )
        : h('div', { class: 'turns-layout' }, list.element, detail)
    const last = trace.turns.length === 0 ? [] : messagesOf(trace.turns, trace.turns.length - 1)
    const finalText = trace.turns.at(-1)?.llm_call.response_text ?? null
    const conversationBox = h(
      'details',
      { class: 'section', on: { toggle: () => renderConversation() } },
      h('summary', null, h('h2', null, `Conversation (${last.length + (finalText === null ? 0 : 1)} messages)`)),
    )
    let conversationShown = false
    const renderConversation = (): void => {
      if (conversationShown || !conversationBox.open) return
      conversationShown = true
      conversationBox.appendChild(
        conversation(finalText === null ? last : [...last, { role: 'assistant', content: finalText }], 'the conversation of the last call and its answer'),
      )
    }
    fill(
      root,
      header(summary, data.spend),
      compareForm(summary, store.runs),
      data.stack_trace === null && summary.error === null
        ? null
        : h(
            'section',
            { class: 'section failure', aria: { labelledby: 'failure-heading' } },
            h('h2', { id: 'failure-heading' }, 'What went wrong'),
            summary.error === null ? null : h('p', { class: 'error-box' }, h('strong', null, `${summary.error.name}: `), summary.error.message),
            data.stack_trace === null ? null : h('pre', { class: 'stack-trace', tabindex: 0, aria: { label: 'agent stack trace' } }, data.stack_trace),
          ),
      (() => {
        const chain = chainTree(summary, store.runs)
        return chain === null
          ? null
          : h('section', { class: 'section', aria: { labelledby: 'chain-heading' } }, h('h2', { id: 'chain-heading' }, 'Chain of agents'), chain)
      })(),
      trace.conversation === undefined ? null : chat(trace.conversation, data),
      h(
        'section',
        { class: 'section', aria: { labelledby: 'turns-heading' } },
        h('h2', { id: 'turns-heading' }, `Turns (${formatCount(trace.turns.length)})`),
        h('p', { class: 'hint' }, 'Keys: ', h('kbd', null, 'j'), ' next turn, ', h('kbd', null, 'k'), ' previous turn. Each turn has its own link.'),
        turns,
      ),
      conversationBox,
      h('details', { class: 'section' }, h('summary', null, h('h2', null, 'Metadata')), jsonBlock(trace.metadata, 'metadata', 3)),
      trace.handoff_context === null
        ? null
        : h('section', { class: 'section' }, h('h2', null, 'Handoff context'), jsonBlock(trace.handoff_context, 'handoff context', 3)),
    )
    if (trace.turns.length > 0) {
      selected = Math.min(selected, trace.turns.length - 1)
      list.setItems(Array.from(trace.turns, (_, i) => i))
      if (keepScroll) list.element.scrollTop = scrollTop
      select(selected, { scroll: !keepScroll })
    }
    performance.mark('reagent:run-rendered')
  }

  const load = async (keepScroll: boolean): Promise<void> => {
    try {
      const data = await store.source.run(id)
      if (stopped) return
      payload = data
      draw(data, keepScroll)
    } catch (error) {
      if (stopped) return
      fill(
        root,
        h('nav', { class: 'crumbs' }, h('a', { href: runsHref() }, 'Runs')),
        h('h1', null, 'Run not found'),
        h('p', { class: 'error-box', role: 'alert' }, (error as Error).message),
      )
    }
  }
  void load(false)

  const stop = store.onChange(() => {
    if (store.byId.has(id)) {
      if (store.fresh.has(id)) void load(true)
      return
    }
    // The file went away: a journal whose run closed into its trace file. Follow the run there.
    const traceId = payload?.summary.trace_id
    const moved = store.runs.find((run) => run.trace_id === traceId && run.kind === 'run')
    if (moved !== undefined) location.replace(runHref(moved.id, selected))
  })

  return {
    follow(route: Route): boolean {
      if (route.page !== 'run' || route.id !== id) return false
      if (route.turn !== null && route.turn !== selected) select(route.turn, { announceIt: true })
      return true
    },
    onKey(event: KeyboardEvent): boolean {
      if (event.key === 'j' || event.key === 'k') {
        select(selected + (event.key === 'j' ? 1 : -1), { announceIt: true })
        return true
      }
      return false
    },
    cleanup() {
      stopped = true
      stop()
    },
  }
}
