/**
 * An Agents SDK model call, kept and answered again (record/replay,
 * `resume()`): `getResponse`'s `ModelResponse`, or the `StreamEvent`s of
 * `getStreamedResponse`, as the recording holds them. Answered from a
 * recording, the runner gets the recorded response and runs the tools,
 * handoffs and guardrails it asks for itself, as it would have. The request
 * is the SDK's `ModelRequest` in normal form, with the model asked; the abort
 * signal, the tracing switch and the runner's bookkeeping only travel with
 * the call.
 */
import { Usage } from '@openai/agents'
import {
  failingChunks,
  fromRecordedValue,
  keepIterated,
  keepResolved,
  normalizeRecordedRequest,
  replayChunks,
  toRecordedValue,
  type ModelExchange,
  type RecordedResponse,
} from '../../src/adapter-support/index.js'
import { field } from './wire.js'

/** The abort signal, the tracing switch, and the runner's own bookkeeping (`_internal`: its trace span, its collision policy). */
const NOT_THE_ANSWER: ReadonlySet<string> = new Set(['signal', 'tracing', '_internal'])

interface Who {
  provider: string | null
  model: string | null
  /** The OpenAI client the model makes its requests with (the SDK's own models). */
  client?: object
}

function common(request: unknown, who: Who, method: string): Pick<ModelExchange<unknown>, 'endpoint' | 'request' | 'client'> {
  return {
    endpoint: `openai-agents ${who.provider ?? 'model'} ${method}`,
    request: () => normalizeRecordedRequest({ ...(request as object), model: who.model }, NOT_THE_ANSWER),
    client: () => (who.client === undefined ? undefined : { client: who.client, provider: who.provider ?? 'openai' }),
  }
}

/** A recorded `ModelResponse`, with its usage the SDK's own class again (the runner adds usages up). */
function responseFrom(recorded: RecordedResponse): unknown {
  const response = fromRecordedValue('value' in recorded ? recorded.value : null) as Record<string, unknown>
  return { ...response, usage: new Usage(field(response, 'usage') as ConstructorParameters<typeof Usage>[0]) }
}

export function getResponseExchange(request: unknown, who: Who): ModelExchange<Promise<unknown>> {
  return {
    ...common(request, who, 'getResponse'),
    capture: (made, done) => keepResolved(made, done, toRecordedValue),
    rebuild: (recorded) => Promise.resolve(responseFrom(recorded)),
    fail: (error) => Promise.reject(error),
  }
}

export function streamedResponseExchange(request: unknown, who: Who): ModelExchange<AsyncIterable<unknown>> {
  return {
    ...common(request, who, 'getStreamedResponse'),
    capture: (made, done) => keepIterated(made, done, toRecordedValue),
    rebuild: (recorded) => replayChunks('chunks' in recorded ? recorded.chunks : [], fromRecordedValue),
    fail: (error) => failingChunks(error),
  }
}
