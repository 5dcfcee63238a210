/**
 * The Agents SDK's two model calls, `getResponse` and `getStreamedResponse`,
 * in the lifecycle's terms (one `ModelApi` each, and again for calls whose
 * data the SDK withholds from its traces).
 */
import type { ModelApi } from '../../src/adapter-support/index.js'
import { requestOf } from './model-request.js'
import { responseOf, StreamEventFold } from './model-response.js'
import { ADAPTER } from './wire.js'

/** A model call as the wrapper sees it: the SDK's `ModelRequest`, and who serves it. */
export interface AgentsCall {
  readonly request: unknown
  readonly provider: string | null
  readonly model: string | null
}

export type AgentsModelApi = ModelApi<AgentsCall, unknown, unknown>

function modelApi(operation: string, withheld: boolean): AgentsModelApi {
  return {
    adapter: ADAPTER,
    operation,
    request: ({ request, provider, model }) => requestOf(request, provider, model),
    response: (response) => responseOf(response, withheld),
    stream: () => new StreamEventFold(withheld),
  }
}

const GET_RESPONSE = 'a Model.getResponse call'
const GET_STREAMED_RESPONSE = 'a Model.getStreamedResponse call'

export const MODEL_APIS = {
  whole: { full: modelApi(GET_RESPONSE, false), withheld: modelApi(GET_RESPONSE, true) },
  streamed: { full: modelApi(GET_STREAMED_RESPONSE, false), withheld: modelApi(GET_STREAMED_RESPONSE, true) },
} as const
