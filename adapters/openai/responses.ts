/**
 * `responses.create` in the recorder's terms. The request's `instructions`
 * and `input` become messages (`function_call` items as the assistant's turn,
 * `function_call_output` items as `role: "tool"`; other item kinds, such as
 * reasoning, are not messages); `function_call_output` items are the tool
 * results the request carries back.
 */
import { CALL_ITEMS, turnOfResponse } from './responses-output.js'
import { ResponseEventAccumulator } from './responses-stream.js'
import { field, type ApiTranslator, type RecordedMessage, type ToolOutput } from './types.js'

const OUTPUT_ITEMS: ReadonlySet<unknown> = new Set(['function_call_output', 'custom_tool_call_output'])

export const responses: ApiTranslator = {
  method: 'responses.create',

  messages(body) {
    const messages: RecordedMessage[] = []
    const instructions = body['instructions']
    if (typeof instructions === 'string') messages.push({ role: 'system', content: instructions })
    const input = body['input']
    if (typeof input === 'string') messages.push({ role: 'user', content: input })
    else if (Array.isArray(input)) {
      for (const item of input) {
        const message = messageOf(item)
        if (message !== undefined) messages.push(message)
      }
    }
    return messages
  },

  toolOutputs(body) {
    const input = body['input']
    const outputs: ToolOutput[] = []
    if (!Array.isArray(input)) return outputs
    for (const item of input) {
      const callId = field(item, 'call_id')
      if (OUTPUT_ITEMS.has(field(item, 'type')) && typeof callId === 'string') outputs.push({ callId, output: field(item, 'output') })
    }
    return outputs
  },

  fromResponse: turnOfResponse,
  accumulator: () => new ResponseEventAccumulator(),
}

function messageOf(item: unknown): RecordedMessage | undefined {
  const role = field(item, 'role')
  if (typeof role === 'string') return { role, content: field(item, 'content') ?? null }
  const type = field(item, 'type')
  if (CALL_ITEMS.has(type)) return { role: 'assistant', content: null }
  if (OUTPUT_ITEMS.has(type)) return { role: 'tool', content: field(item, 'output') ?? null }
  return undefined
}
