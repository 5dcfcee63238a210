/**
 * `responses.create` in the recorder's terms. The request's `instructions`
 * and `input` become messages (`function_call` items as the assistant's turn,
 * `function_call_output` items as `role: "tool"`; other item kinds, such as
 * reasoning, are not messages); `function_call_output` items are the tool
 * results the request carries back.
 */
import { inputMessages, type RequestToolResult } from '../../src/adapter-support/index.js'
import { CALL_ITEMS, responseOf } from './responses-output.js'
import { ResponseEventFold } from './responses-stream.js'
import { offeredTools, responsesToolOf } from './tools.js'
import { ADAPTER, field, requestOf, toolResultOf, type OpenAIApi, type RecordedMessage } from './types.js'

const OUTPUT_ITEMS: ReadonlySet<unknown> = new Set(['function_call_output', 'custom_tool_call_output'])

export const responses: OpenAIApi = {
  adapter: ADAPTER,
  operation: 'a responses.create call',
  request: (body) => requestOf(body, messagesOf(body), toolResultsOf(body['input']), offeredTools(body, responsesToolOf)),
  response: responseOf,
  stream: () => new ResponseEventFold(),
}

function messagesOf(body: Record<string, unknown>): RecordedMessage[] {
  return inputMessages(body['instructions'], body['input'], messageOf)
}

function toolResultsOf(input: unknown): RequestToolResult[] {
  const results: RequestToolResult[] = []
  if (!Array.isArray(input)) return results
  for (const item of input) {
    const callId = field(item, 'call_id')
    if (OUTPUT_ITEMS.has(field(item, 'type')) && typeof callId === 'string') results.push(toolResultOf(callId, field(item, 'output')))
  }
  return results
}

function messageOf(item: unknown): RecordedMessage | undefined {
  const role = field(item, 'role')
  if (typeof role === 'string') return { role, content: field(item, 'content') ?? null }
  const type = field(item, 'type')
  if (CALL_ITEMS.has(type)) return { role: 'assistant', content: null }
  if (OUTPUT_ITEMS.has(type)) return { role: 'tool', content: field(item, 'output') ?? null }
  return undefined
}
