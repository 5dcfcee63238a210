/**
 * `messages.create()` (of `messages` and `beta.messages`) in the lifecycle's
 * terms: the request's system prompt and messages, the `tool_result` blocks
 * it sends back, and the response message, whole or streamed.
 *
 * A streamed response is recorded at `message_stop`; a stream that fails, is
 * closed by its reader (`break`, `controller.abort()`), or ends without
 * `message_stop` is recorded with what arrived and the reason it is incomplete.
 */
import type { ModelApi, ModelRequest } from '../../src/adapter-support/index.js'
import { MessageFold } from './message-fold.js'
import { requestToolResults } from './request-tool-results.js'
import { responseOf } from './response.js'
import { offeredTools } from './tools.js'
import type { WireCreateParams, WireMessage, WireMessageParam } from './wire.js'

export const ADAPTER = 'reagent-flow/anthropic'

/** The request's system prompt and messages, each as `{ role, content }`; the array is copied so a later push by the agent does not change it. */
function requestMessages(params: WireCreateParams): WireMessageParam[] {
  const messages: WireMessageParam[] = []
  if (params.system !== undefined && params.system !== null) messages.push({ role: 'system', content: params.system })
  if (Array.isArray(params.messages)) messages.push(...params.messages)
  return messages
}

export const messagesCreate: ModelApi<WireCreateParams, unknown> = {
  adapter: ADAPTER,
  operation: 'a messages.create() call',
  request(params) {
    const request: ModelRequest = {
      provider: 'anthropic',
      model: typeof params.model === 'string' ? params.model : null,
      messages: requestMessages(params),
      toolResults: requestToolResults(params.messages),
    }
    const tools = offeredTools(params)
    return tools === undefined ? request : { ...request, tools }
  },
  response: (message) => responseOf(message as WireMessage),
  stream: () => new MessageFold(),
}
