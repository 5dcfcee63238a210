/**
 * OpenAI chat completions (`POST .../chat/completions`): the request's
 * messages and function tools, and the answer as a `chat.completion`, or as
 * `chat.completion.chunk` events ending with `[DONE]`, with tool-call deltas
 * keyed by index and the usage chunk only when `stream_options.include_usage`
 * asks for it.
 */
import { jsonDeltas, textDeltas } from '../deltas.js'
import { isRecord, listOf, parseArguments, scriptTool, stringOr, textOf } from '../request.js'
import type { Reply } from '../script-cursor.js'
import type { ScriptMessage, ScriptTool } from '../types.js'
import type { TokenCounts } from '../usage.js'
import { openaiErrorBody } from './openai-error.js'
import type { SseEvent } from '../../http/sse.js'
import type { JsonValue } from '../../trace/types.js'
import type { ReplyContext, WireFormat } from './wire-format.js'

const FINGERPRINT = 'fp_scripted'

export const openaiChat: WireFormat = {
  api: 'chat.completions',
  toolCallIdPrefix: 'call_',
  requestIdHeader: 'x-request-id',
  parse: (body) => ({
    model: stringOr(body.model, undefined),
    messages: listOf(body.messages).filter(isRecord).map(messageOf),
    tools: listOf(body.tools).flatMap(toolOf),
    stream: body.stream === true,
  }),
  json: (reply, context) => ({
    id: completionId(context),
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, message: messageJson(reply), logprobs: null, finish_reason: finishReason(reply) }],
    usage: usageJson(reply.usage),
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  }),
  events: chunkEvents,
  errorBody: (error) => openaiErrorBody(error),
}

function messageOf(message: Record<string, unknown>): ScriptMessage {
  const content = textOf(message.content)
  switch (message.role) {
    case 'assistant':
      return { role: 'assistant', content, toolCalls: listOf(message.tool_calls).filter(isRecord).map(toolCallOf) }
    case 'tool':
      return { role: 'tool', content, toolCallId: stringOr(message.tool_call_id, '') }
    case 'system':
    case 'developer':
      return { role: 'system', content }
    default:
      return { role: 'user', content }
  }
}

function toolCallOf(call: Record<string, unknown>): { id: string; name: string; arguments: unknown } {
  const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : {}
  return { id: stringOr(call.id, ''), name: stringOr(fn.name, ''), arguments: parseArguments(fn.arguments ?? fn.input) }
}

function toolOf(tool: unknown): ScriptTool[] {
  if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function) || typeof tool.function.name !== 'string') return []
  return [scriptTool(tool.function.name, tool.function.description, tool.function.parameters)]
}

function messageJson(reply: Reply): Record<string, unknown> {
  return {
    role: 'assistant',
    content: reply.text ?? null,
    refusal: null,
    annotations: [],
    ...(reply.toolCalls.length === 0
      ? {}
      : { tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.json } })) }),
  }
}

function chunkEvents(reply: Reply, context: ReplyContext): SseEvent[] {
  const includeUsage = isRecord(context.body.stream_options) && context.body.stream_options.include_usage === true
  const chunk = (choices: JsonValue[], usage?: JsonValue): SseEvent => ({
    data: {
      id: completionId(context),
      object: 'chat.completion.chunk',
      created: context.created,
      model: context.model,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
      choices,
      ...(includeUsage ? { usage: usage ?? null } : {}),
    },
  })
  const delta = (value: { [key: string]: JsonValue }, finish: string | null = null): SseEvent =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }])

  const events = [delta({ role: 'assistant', content: reply.text === undefined ? null : '', refusal: null })]
  for (const piece of textDeltas(reply.text ?? '')) events.push(delta({ content: piece }))
  reply.toolCalls.forEach((call, index) => {
    events.push(delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))
    for (const piece of jsonDeltas(call.json)) events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }))
  })
  events.push(delta({}, finishReason(reply)))
  if (includeUsage) events.push(chunk([], usageJson(reply.usage)))
  events.push({ text: '[DONE]' })
  return events
}

function completionId(context: ReplyContext): string {
  return `chatcmpl-scripted-${context.call}`
}

function finishReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'
}

function usageJson({ inputTokens, outputTokens }: TokenCounts): JsonValue {
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  }
}
