/**
 * `chat.completions.create` in the recorder's terms: the request's messages
 * and tool messages, and a `chat.completion` (or its streamed chunks) as the
 * LLM call of one turn.
 *
 * With `n > 1` the model answers several times; the first choice is the one
 * recorded, as it is the one agent loops (and the SDK's helpers) go on with.
 */
import type { ModelResponse, RequestToolResult, ToolCallInput } from '../../src/adapter-support/index.js'
import { ChatChunkFold } from './chat-stream.js'
import { chatToolOf, offeredTools } from './tools.js'
import { ADAPTER, field, requestOf, stringOrNull, toolResultOf, usageOf, type OpenAIApi } from './types.js'

export const chatCompletions: OpenAIApi = {
  adapter: ADAPTER,
  operation: 'a chat.completions.create call',

  request(body) {
    // Chat messages already have the recorder's shape ({ role, content, ... }: it keeps those two keys).
    const messages = body['messages']
    return requestOf(body, Array.isArray(messages) ? messages.slice() : null, toolResultsOf(messages), offeredTools(body, chatToolOf))
  },

  response(completion): ModelResponse {
    const choice = firstChoice(field(completion, 'choices'))
    const message = field(choice, 'message')
    const toolCalls = field(message, 'tool_calls')
    return {
      toolCalls: Array.isArray(toolCalls) ? toolCalls.map(toolCallOf) : [],
      responseText: stringOrNull(field(message, 'content')),
      model: stringOrNull(field(completion, 'model')),
      tokenUsage: usageOf(field(completion, 'usage')),
      stopReason: stringOrNull(field(choice, 'finish_reason')),
    }
  },

  stream: () => new ChatChunkFold(),
}

/** The `tool` messages: outputs of calls of earlier turns. */
function toolResultsOf(messages: unknown): RequestToolResult[] {
  const results: RequestToolResult[] = []
  if (!Array.isArray(messages)) return results
  for (const message of messages) {
    const callId = field(message, 'tool_call_id')
    if (field(message, 'role') === 'tool' && typeof callId === 'string') results.push(toolResultOf(callId, field(message, 'content')))
  }
  return results
}

function firstChoice(choices: unknown): unknown {
  if (!Array.isArray(choices)) return undefined
  return choices.find((choice) => (field(choice, 'index') ?? 0) === 0) ?? choices[0]
}

/** A function tool call, or a custom tool call (free-form input, kept raw when it is not JSON). */
function toolCallOf(call: unknown): ToolCallInput {
  const custom = field(call, 'custom')
  const fn = custom === undefined ? field(call, 'function') : custom
  const id = field(call, 'id')
  return {
    name: stringOrNull(field(fn, 'name')) ?? 'unknown',
    arguments: custom === undefined ? field(fn, 'arguments') : field(custom, 'input'),
    ...(typeof id === 'string' ? { callId: id } : {}),
  }
}
