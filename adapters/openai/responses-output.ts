/**
 * A Responses API `response` object in the recorder's terms: its `function_call` and
 * `custom_tool_call` output items are the tool calls, the `output_text` parts
 * of its messages the response text.
 */
import { outputTexts, type ModelResponse, type ToolCallInput } from '../../src/adapter-support/index.js'
import { field, stringOrNull, usageOf } from './types.js'

export const CALL_ITEMS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call'])

/** A `response` object (complete, or the one a stream's last event carries). */
export function responseOf(response: unknown): ModelResponse {
  const output = field(response, 'output')
  const items: unknown[] = Array.isArray(output) ? output : []
  const toolCalls: ToolCallInput[] = []
  const texts: string[] = []
  for (const item of items) {
    const type = field(item, 'type')
    if (CALL_ITEMS.has(type)) toolCalls.push(toolCallOfItem(item))
    else if (type === 'message') texts.push(...outputTexts(field(item, 'content')))
  }
  const error = field(response, 'error')
  return {
    toolCalls,
    responseText: texts.length === 0 ? null : texts.join(''),
    model: stringOrNull(field(response, 'model')),
    tokenUsage: usageOf(field(response, 'usage')),
    stopReason: stringOrNull(field(field(response, 'incomplete_details'), 'reason')) ?? stringOrNull(field(response, 'status')),
    ...(error === null || error === undefined ? {} : { error: responseError(error) }),
  }
}

export function toolCallOfItem(item: unknown): ToolCallInput {
  const callId = field(item, 'call_id')
  return {
    name: stringOrNull(field(item, 'name')) ?? 'unknown',
    arguments: field(item, 'type') === 'custom_tool_call' ? field(item, 'input') : field(item, 'arguments'),
    ...(typeof callId === 'string' ? { callId } : {}),
  }
}

/** The error a failed response (or an `error` stream event) reports, as an Error named by its code. */
export function responseError(error: unknown): Error {
  const code = stringOrNull(field(error, 'code'))
  const message = stringOrNull(field(error, 'message')) ?? JSON.stringify(error)
  const recorded = new Error(code === null ? message : `${code}: ${message}`)
  recorded.name = 'ResponseError'
  return recorded
}
