/**
 * The Agents SDK's `Model`, recorded: `getResponse` and
 * `getStreamedResponse` of a model (an instance, or the prototype of the
 * SDK's own model classes) go through the call lifecycle, into the session of
 * the agent that made the call.
 *
 * `call.send(...)` below is the one place an Agents SDK model call is made:
 * record/replay and `resume()` answer there from a recording (a
 * `ModelResponse`, or the recorded `StreamEvent`s as an async iterable)
 * instead of calling the model (exchange.ts), as
 * docs/decisions/017-one-call-lifecycle.md describes for every adapter.
 */
import { markInstrumented, patchMethod, recordSafely, startModelCall, tapStream, type Session } from '../../src/adapter-support/index.js'
import { getResponseExchange, streamedResponseExchange } from './exchange.js'
import { noteHostedMcp } from './hosted-mcp.js'
import { MODEL_APIS, type AgentsModelApi } from './model-api.js'
import { isWithheld } from './model-request.js'
import { ADAPTER, field } from './wire.js'

/** Who serves the calls of a model object, as LLM calls record it, and the OpenAI client it calls through when known (where injected faults answer). */
export type ModelIdentity = (model: object) => { provider: string | null; model: string | null; client?: object }

/** Where the calls go: the session of the agent making the call (see AgentRuns), read when the call starts. */
export interface CallRouting {
  sessionForModelCall(): Session | undefined
  /** A request made by the agent whose session is `s`: its handoff tools, and whether the SDK withholds its data. */
  noteRequest(s: Session, request: unknown): void
}

type GetResponse = (this: unknown, request: unknown) => Promise<unknown>
type GetStreamedResponse = (this: unknown, request: unknown) => AsyncIterable<unknown>

const RECORDED = Symbol.for('reagent-flow.openai-agents.model')

/**
 * Requests whose call is being recorded: a model whose streaming calls its
 * own `getResponse` (many custom models do) makes one call, not two.
 */
const inFlight = new WeakSet<object>()

/** True when calls of `model` are recorded already (its own methods, or its class's). */
export function isRecorded(model: object): boolean {
  return RECORDED in model
}

/**
 * Records the model calls made through `target`'s `getResponse` and
 * `getStreamedResponse` (own properties replace them; a prototype serves
 * every instance). Outside a session the methods behave as before. False when
 * `target` was recorded already.
 */
export function recordModelCalls(target: object, identity: ModelIdentity, routing: CallRouting): boolean {
  if (!markInstrumented(target, RECORDED)) return false
  const start = (model: unknown, request: unknown, apis: { full: AgentsModelApi; withheld: AgentsModelApi }) => {
    if (request === null || typeof request !== 'object' || inFlight.has(request)) return undefined
    const s = routing.sessionForModelCall()
    if (s === undefined) return undefined
    routing.noteRequest(s, request)
    const { provider, model: name } = identity(model as object)
    const call = startModelCall(s, isWithheld(request) ? apis.withheld : apis.full, { request, provider, model: name })
    if (call !== undefined) inFlight.add(request)
    return call
  }
  const done = (request: unknown): void => void inFlight.delete(request as object)

  patchMethod<GetResponse>(
    target,
    'getResponse',
    (original) =>
      function (this: unknown, request: unknown): Promise<unknown> {
        const call = start(this, request, MODEL_APIS.whole)
        if (call === undefined) return original.call(this, request)
        return call
          .send(() => original.call(this, request), getResponseExchange(request, identity(this as object)))
          .then(
            (response) => {
              done(request)
              call.receive(response)
              recordSafely(ADAPTER, 'the hosted MCP calls of a response', () => noteHostedMcp(call.session, field(response, 'output')))
              return response
            },
            (error: unknown) => {
              done(request)
              call.fail(error)
              throw error
            },
          )
      },
  )

  patchMethod<GetStreamedResponse>(
    target,
    'getStreamedResponse',
    (original) =>
      function (this: unknown, request: unknown): AsyncIterable<unknown> {
        const call = start(this, request, MODEL_APIS.streamed)
        if (call === undefined) return original.call(this, request)
        const stream = call.send(() => original.call(this, request), streamedResponseExchange(request, identity(this as object)))
        const watch = call.stream()
        if (stream !== null && typeof stream === 'object') {
          tapStream(stream, ADAPTER, {
            onEvent: (event) => {
              watch.onEvent(event)
              if (field(event, 'type') === 'response_done') noteHostedMcp(call.session, field(field(event, 'response'), 'output'))
            },
            onEnd: (end) => {
              done(request)
              watch.onEnd(end)
            },
          })
        }
        return stream
      },
  )
  return true
}

/** The SDK's OpenAI models: OpenAIResponsesModel keeps its model name in `_model` and its client in `_client`; chat's are private, its responses name the model. */
export const openAIModelIdentity: ModelIdentity = (model) => {
  const name = field(model, '_model')
  const client = field(model, '_client')
  return { provider: 'openai', model: typeof name === 'string' ? name : null, ...(client !== null && typeof client === 'object' ? { client } : {}) }
}
