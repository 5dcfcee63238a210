/**
 * One turn, two ways: a row of the timeline (what the model did, at a
 * glance) and the turn in full (the LLM call, the messages sent, the answer,
 * each tool call with its result or error). Marks for replayed calls and
 * injected faults when the trace has them.
 */
import type { Message, Trace, Turn } from '../../trace/types.js'
import { h, type Child } from './dom.js'
import { formatCount, formatDuration, formatTime, oneLineJson, oneLineText } from './format.js'
import { facts, jsonBlock } from './json-view.js'
import { markBadge } from './parts.js'
import { runHref } from './router.js'
import { earlierCount, isInjected, isReplayed, messagesOf, resultsOf, turnFailed, turnLatency, turnTokens } from './trace-facts.js'

function marks(turn: Turn): Child[] {
  return [
    isReplayed(turn) ? markBadge('replayed', 'replayed', 'answered from a recording, not by the model') : null,
    isInjected(turn) ? markBadge('injected fault', 'injected', 'this failure was injected (faults option)') : null,
    turn.llm_call.error !== undefined ? markBadge('LLM error', 'error', `${turn.llm_call.error.name}: ${turn.llm_call.error.message}`) : null,
  ]
}

function tokensText(turn: Turn): string | null {
  const tokens = turnTokens(turn)
  return tokens === null ? null : `${formatCount(tokens.input)} in / ${formatCount(tokens.output)} out`
}

/** A row of the timeline. */
export function turnRow(turn: Turn, position: number, id: string, selected: boolean): HTMLElement {
  const call = turn.llm_call
  const meta = [call.model, formatDuration(turnLatency(turn)), tokensText(turn)].filter(
    (part): part is string => part !== null && part !== undefined && part !== '',
  )
  const results = (toolCall: Turn['llm_call']['tool_calls'][number]): Child => {
    const found = resultsOf(turn, toolCall)
    if (found.length === 0) return h('span', { class: 'muted' }, ' · no result')
    return found.map((result) =>
      result.error === null
        ? h('span', { class: 'ok', aria: { label: 'succeeded' } }, ' ✓')
        : h('span', { class: 'error-text' }, ` ✗ ${oneLineText(result.error, 120)}`),
    )
  }
  return h(
    'div',
    { class: `turn-row${selected ? ' selected' : ''}${turnFailed(turn) ? ' failed' : ''}`, data: { turn: position } },
    h(
      'a',
      { href: runHref(id, position), class: 'turn-link', aria: { current: selected ? 'true' : 'false' } },
      h('span', { class: 'turn-title' }, `Turn ${turn.index}`),
      h('span', { class: 'turn-meta' }, meta.join(' · ')),
      marks(turn),
    ),
    call.tool_calls.length === 0
      ? null
      : h(
          'ul',
          { class: 'calls' },
          call.tool_calls.map((toolCall) =>
            h(
              'li',
              null,
              h('span', { class: 'tool-name' }, toolCall.name),
              h('span', { class: 'args' }, `(${oneLineJson(toolCall.arguments, 120)})`),
              results(toolCall),
            ),
          ),
        ),
    call.response_text === null || call.response_text === '' ? null : h('p', { class: 'response-snippet' }, oneLineText(call.response_text, 240)),
  )
}

function contentText(content: unknown): Child {
  if (typeof content === 'string') return h('div', { class: 'text' }, content)
  if (Array.isArray(content) && content.every((part) => part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string')) {
    return content.map((part) => h('div', { class: 'text' }, (part as { text: string }).text))
  }
  return jsonBlock(content, 'message content', 1)
}

/** Messages as a conversation: who said what, in order. */
export function conversation(messages: readonly Message[], label: string): HTMLElement {
  return h(
    'ol',
    { class: 'conversation', aria: { label } },
    messages.map((message) =>
      h(
        'li',
        { class: `message role-${/^[a-z_-]+$/i.test(message.role) ? message.role : 'other'}` },
        h('div', { class: 'role' }, message.role),
        contentText(message.content),
      ),
    ),
  )
}

function toolCallBlock(turn: Turn, toolCall: Turn['llm_call']['tool_calls'][number]): HTMLElement {
  const results = resultsOf(turn, toolCall)
  return h(
    'section',
    { class: 'tool-call', aria: { label: `tool call ${toolCall.name}` } },
    h('h4', null, h('span', { class: 'tool-name' }, toolCall.name), ' ', h('span', { class: 'muted call-id' }, toolCall.call_id)),
    h('div', { class: 'label' }, 'Arguments'),
    jsonBlock(toolCall.arguments, `arguments of ${toolCall.name}`),
    results.length === 0
      ? h('p', { class: 'muted' }, 'No result was recorded for this call.')
      : results.map((result) =>
          result.error !== null
            ? h(
                'div',
                { class: 'result failed' },
                h('div', { class: 'label' }, `Error · ${formatDuration(result.duration_ms)}`),
                h('div', { class: 'error-text text' }, result.error),
              )
            : h(
                'div',
                { class: 'result' },
                h('div', { class: 'label' }, `Result · ${formatDuration(result.duration_ms)}`),
                jsonBlock(result.result, `result of ${toolCall.name}`),
              ),
        ),
  )
}

/** The turn in full. */
export function turnDetail(trace: Trace, position: number): HTMLElement {
  const turn = trace.turns[position]!
  const call = turn.llm_call
  const messages = messagesOf(trace.turns, position)
  const earlier = Math.min(earlierCount(trace.turns, position), messages.length)
  const unmatched = turn.unmatched_results ?? []
  return h(
    'article',
    { class: 'turn-detail', aria: { labelledby: 'turn-heading' } },
    h('h3', { id: 'turn-heading', tabindex: -1 }, `Turn ${turn.index}`, ' ', marks(turn)),
    facts([
      ['Model', call.model ?? null],
      ['Provider', typeof call.provider === 'string' ? call.provider : null],
      ['Latency', typeof call.latency_ms === 'number' ? formatDuration(call.latency_ms) : null],
      ['Turn duration', formatDuration(turn.duration_ms)],
      ['Tokens', tokensText(turn)],
      ['Stop reason', typeof call.stop_reason === 'string' ? call.stop_reason : null],
      ['At', formatTime(call.timestamp)],
    ]),
    call.error === undefined ? null : h('div', { class: 'error-box', role: 'note' }, h('strong', null, `${call.error.name}: `), call.error.message),
    messages.length === 0
      ? null
      : h(
          'section',
          { class: 'messages' },
          h('h4', null, `Messages sent (${messages.length})`),
          earlier === 0
            ? null
            : h(
                'details',
                null,
                h('summary', null, `${earlier} earlier message${earlier === 1 ? '' : 's'}`),
                conversation(messages.slice(0, earlier), 'earlier messages'),
              ),
          conversation(messages.slice(earlier), 'new messages'),
        ),
    call.response_text === null ? null : h('section', { class: 'response' }, h('h4', null, 'Response'), h('div', { class: 'text' }, call.response_text)),
    call.tool_calls.length === 0
      ? null
      : h(
          'section',
          null,
          h('h4', null, `Tool calls (${call.tool_calls.length})`),
          call.tool_calls.map((toolCall) => toolCallBlock(turn, toolCall)),
        ),
    unmatched.length === 0
      ? null
      : h(
          'section',
          null,
          h('h4', null, 'Results with no matching call'),
          unmatched.map((u) =>
            h(
              'div',
              null,
              h('span', { class: 'tool-name' }, u.name),
              ' ',
              jsonBlock(turn.tool_results.find((r) => r.call_id === u.call_id) ?? null, `result of ${u.name}`),
            ),
          ),
        ),
  )
}
