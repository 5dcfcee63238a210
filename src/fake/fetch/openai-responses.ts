/**
 * OpenAI's Responses API (`POST .../responses`): the answer as a `response`
 * object (a `message` item with `output_text`, a `function_call` item per
 * tool call), or as the numbered events a stream sends from
 * `response.created` to `response.completed`, argument deltas keyed by
 * `item_id`.
 */
import { jsonDeltas, textDeltas } from '../deltas.js'
import type { Reply, ReplyToolCall } from '../script-cursor.js'
import type { TokenCounts } from '../usage.js'
import { openaiErrorBody } from './openai-error.js'
import { parseResponsesRequest } from './openai-responses-request.js'
import type { SseEvent } from '../../http/sse.js'
import type { ReplyContext, WireFormat } from './wire-format.js'

export const openaiResponses: WireFormat = {
  api: 'responses',
  toolCallIdPrefix: 'call_',
  requestIdHeader: 'x-request-id',
  parse: parseResponsesRequest,
  json: (reply, context) => responseJson(context, 'completed', outputItems(reply, context), usageJson(reply.usage)),
  events: responseEvents,
  errorBody: (error) => openaiErrorBody(error),
}

type Item = Record<string, unknown>

function outputItems(reply: Reply, context: ReplyContext): Item[] {
  const items: Item[] = []
  if (reply.text !== undefined) items.push(messageItem(context, 'completed', reply.text))
  for (const [i, call] of reply.toolCalls.entries()) items.push(functionCallItem(context, i, call, 'completed', call.json))
  return items
}

function responseEvents(reply: Reply, context: ReplyContext): SseEvent[] {
  const events: SseEvent[] = []
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields } })
  }
  const started = responseJson(context, 'in_progress', [], null)
  emit('response.created', { response: started })
  emit('response.in_progress', { response: started })
  let outputIndex = 0
  if (reply.text !== undefined) {
    const text = reply.text
    const item_id = messageId(context)
    const at = { item_id, output_index: outputIndex, content_index: 0 }
    emit('response.output_item.added', { output_index: outputIndex, item: messageItem(context, 'in_progress', undefined) })
    emit('response.content_part.added', { ...at, part: outputText('') })
    for (const delta of textDeltas(text)) emit('response.output_text.delta', { ...at, delta, logprobs: [] })
    emit('response.output_text.done', { ...at, text, logprobs: [] })
    emit('response.content_part.done', { ...at, part: outputText(text) })
    emit('response.output_item.done', { output_index: outputIndex, item: messageItem(context, 'completed', text) })
    outputIndex += 1
  }
  reply.toolCalls.forEach((call, i) => {
    const item_id = functionCallId(context, i)
    emit('response.output_item.added', { output_index: outputIndex, item: functionCallItem(context, i, call, 'in_progress', '') })
    for (const delta of jsonDeltas(call.json)) emit('response.function_call_arguments.delta', { item_id, output_index: outputIndex, delta })
    emit('response.function_call_arguments.done', { item_id, output_index: outputIndex, name: call.name, arguments: call.json })
    emit('response.output_item.done', { output_index: outputIndex, item: functionCallItem(context, i, call, 'completed', call.json) })
    outputIndex += 1
  })
  emit('response.completed', { response: responseJson(context, 'completed', outputItems(reply, context), usageJson(reply.usage)) })
  return events
}

/** The `response` object, echoing the request's settings as the API does. */
function responseJson(context: ReplyContext, status: string, output: Item[], usage: unknown): Item {
  const { body } = context
  const echo = (key: string, fallback: unknown): unknown => body[key] ?? fallback
  return {
    id: `resp_scripted_${context.call}`,
    object: 'response',
    created_at: context.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: echo('instructions', null),
    max_output_tokens: echo('max_output_tokens', null),
    model: context.model,
    output,
    parallel_tool_calls: echo('parallel_tool_calls', true),
    previous_response_id: echo('previous_response_id', null),
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: echo('store', true),
    temperature: echo('temperature', 1),
    text: echo('text', { format: { type: 'text' } }),
    tool_choice: echo('tool_choice', 'auto'),
    tools: echo('tools', []),
    top_p: echo('top_p', 1),
    truncation: echo('truncation', 'disabled'),
    usage,
    user: null,
    metadata: echo('metadata', {}),
  }
}

/** The message item; its text is left out while it is still being streamed. */
function messageItem(context: ReplyContext, status: string, text: string | undefined): Item {
  return { type: 'message', id: messageId(context), status, role: 'assistant', content: text === undefined ? [] : [outputText(text)] }
}

function functionCallItem(context: ReplyContext, index: number, call: ReplyToolCall, status: string, args: string): Item {
  return { type: 'function_call', id: functionCallId(context, index), call_id: call.id, name: call.name, arguments: args, status }
}

function outputText(text: string): Item {
  return { type: 'output_text', text, annotations: [] }
}

function messageId(context: ReplyContext): string {
  return `msg_scripted_${context.call}`
}

function functionCallId(context: ReplyContext, index: number): string {
  return `fc_scripted_${context.call}_${index}`
}

function usageJson({ inputTokens, outputTokens }: TokenCounts): unknown {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  }
}
