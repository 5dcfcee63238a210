/**
 * Anthropic's Messages API (`POST .../messages`): the request's system
 * prompt, messages (tool_result blocks become tool messages) and custom
 * tools; the answer as a `message` with text and `tool_use` blocks, or as
 * the stream `message_start`, `content_block_start/delta/stop` per block,
 * `message_delta` (stop reason, output tokens), `message_stop`; errors as
 * `{ type: "error", error: { type, message } }`.
 */
import { jsonDeltas, textDeltas } from '../deltas.js'
import { isRecord, listOf, scriptTool, stringOr, textOf } from '../request.js'
import type { Reply } from '../script-cursor.js'
import type { ScriptMessage, ScriptTool } from '../types.js'
import { anthropicErrorType } from './anthropic-error.js'
import type { TokenCounts } from '../usage.js'
import type { SseEvent } from '../../http/sse.js'
import type { ReplyContext, WireFormat } from './wire-format.js'

export const anthropicMessages: WireFormat = {
  api: 'messages',
  toolCallIdPrefix: 'toolu_',
  requestIdHeader: 'request-id',
  parse: (body) => ({
    model: stringOr(body.model, undefined),
    messages: [
      ...(body.system === undefined ? [] : [{ role: 'system' as const, content: textOf(body.system) }]),
      ...listOf(body.messages).filter(isRecord).flatMap(messagesOf),
    ],
    tools: listOf(body.tools).flatMap(toolOf),
    stream: body.stream === true,
  }),
  json: (reply, context) => ({ ...messageJson(context, contentBlocks(reply), stopReason(reply)), usage: usageJson(reply.usage, reply.usage.outputTokens) }),
  events: messageEvents,
  errorBody: (error, context) => ({
    type: 'error',
    error: { type: error.type ?? anthropicErrorType(error.status), message: error.message },
    request_id: context.requestId,
  }),
}

/** A user message's tool_result blocks are tool messages, its text one user message. */
function messagesOf(message: Record<string, unknown>): ScriptMessage[] {
  const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : listOf(message.content).filter(isRecord)
  const text = textOf(blocks.filter((block) => block.type === 'text'))
  if (message.role === 'assistant') {
    const toolCalls = blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: stringOr(block.id, ''), name: stringOr(block.name, ''), arguments: block.input ?? {} }))
    return [{ role: 'assistant', content: text, toolCalls }]
  }
  const results: ScriptMessage[] = blocks
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ role: 'tool', content: textOf(block.content), toolCallId: stringOr(block.tool_use_id, '') }))
  return results.length > 0 && text === '' ? results : [...results, { role: 'user', content: text }]
}

/** Custom tools (with an input schema); server tools such as web search are left to `body`. */
function toolOf(tool: unknown): ScriptTool[] {
  if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.input_schema)) return []
  return [scriptTool(tool.name, tool.description, tool.input_schema)]
}

function contentBlocks(reply: Reply): Record<string, unknown>[] {
  return [
    ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
    ...reply.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments, caller: { type: 'direct' } })),
  ]
}

function messageEvents(reply: Reply, context: ReplyContext): SseEvent[] {
  const events: SseEvent[] = []
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push({ event: type, data: { type, ...fields } })
  }
  // The first usage counts the prompt and the first output token, as the API's does; message_delta has the totals.
  emit('message_start', { message: { ...messageJson(context, [], null), usage: usageJson(reply.usage, 1) } })
  emit('ping', {})
  let index = 0
  if (reply.text !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } })
    for (const text of textDeltas(reply.text)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } })
    emit('content_block_stop', { index })
    index += 1
  }
  for (const call of reply.toolCalls) {
    emit('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {}, caller: { type: 'direct' } } })
    for (const partial_json of ['', ...jsonDeltas(call.json)]) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } })
    emit('content_block_stop', { index })
    index += 1
  }
  emit('message_delta', { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: usageJson(reply.usage, reply.usage.outputTokens) })
  emit('message_stop', {})
  return events
}

function messageJson(context: ReplyContext, content: unknown[], stop: string | null): Record<string, unknown> {
  return { id: `msg_scripted_${context.call}`, type: 'message', role: 'assistant', model: context.model, content, stop_reason: stop, stop_sequence: null }
}

function stopReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn'
}

function usageJson({ inputTokens }: TokenCounts, outputTokens: number): unknown {
  return { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
}
