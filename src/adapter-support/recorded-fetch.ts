/**
 * The `fetch` of a client built by Stainless (openai, @anthropic-ai/sdk),
 * instrumented: inside a session whose steps keep or answer calls, each
 * request the client makes (chat, responses, messages, and embeddings,
 * moderations, anything else) is a step. Answered from a recording or a
 * resumed run, the SDK gets the recorded response and parses it itself, so
 * `parse`, `stream`, `runTools`, `withResponse`, `asResponse` and `tee` work
 * on replayed calls as on live ones; made live, its response reaches the SDK
 * unchanged while a copy is kept. A replay with no match (any error of ours)
 * is a 200 whose body fails with it: the SDK hands it to the caller as it is
 * (http/failing-response.ts), never retried into a "Connection error".
 *
 * Responses that the SDK retries (408, 409, 429, 5xx) are not kept: a replay
 * answers with the response that came in the end, so it never waits out a
 * retry. One that was the end (the SDK gave up: `maxRetries: 0`, or a 429 on
 * every attempt) is not kept either, so its replay is a ReplayMissError where
 * the live run raised the SDK's error: we cannot tell a last attempt from one
 * the SDK will retry when it comes in.
 *
 * In `auto`, a call the recording missed whose model cannot be reached
 * (refused, no such host) gets the miss, delivered as a replay's miss is,
 * at its first attempt (unreachable.ts).
 *
 * Injected model faults (the `faults` option) answer first, before a
 * recording or the network: a failed attempt is never a step, so it is
 * neither in a recording nor in what `resume()` replays.
 */
import { currentSession } from '../session/context.js'
import { currentModelCall } from './model-call-context.js'
import { modelFaultsOf } from '../faults/session-feature.js'
import { STEPS } from '../replay/session-feature.js'
import type { SessionSteps } from '../replay/session-steps.js'
import { internals } from '../session/internals.js'
import type { RecordedResponse } from '../storage/index.js'
import type { JsonValue } from '../trace/types.js'
import { responseFailingWith } from '../http/failing-response.js'
import { eventStreamBody, parseEventStream } from '../http/sse.js'
import { answerFault } from './fault-response.js'
import { readFetchRequest, type FetchRequest } from './request-body.js'
import { NOT_THE_ANSWER } from '../replay/normalize.js'
import { unreachableBecause } from './unreachable.js'

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** A wrapper's own fetch: a client derived with `withOptions()` inherits the wrapper, and is wrapped from the original again. */
const ORIGINAL = Symbol.for('reagent-flow.fetch.original')

/** Responses answered from a recording, so the call they answer is recorded as replayed (recording-promise.ts). */
const replayedResponses = new WeakSet<Response>()

/** True for a response this layer answered from a recording or a resumed run. */
export function isReplayedResponse(response: unknown): boolean {
  return response instanceof Response && replayedResponses.has(response)
}

/** Statuses the SDKs retry on their own. */
function isRetried(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * Instruments `client.fetch` (an own property of every Stainless client):
 * requests made inside a session are kept and answered as its steps, named
 * `<provider> <METHOD> <path below the client's baseURL>`. Outside a session,
 * or in a session that neither replays, resumes nor journals, the original
 * `fetch` is called as it was.
 */
export function recordFetch(client: object, provider: string): void {
  const target = client as { fetch?: unknown; baseURL?: unknown }
  if (typeof target.fetch !== 'function') return
  const original = ((target.fetch as { [ORIGINAL]?: Fetch })[ORIGINAL] ?? target.fetch) as Fetch
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const session = currentSession()
    if (session === undefined) return original.call(undefined, input, init)
    // A model call of a run with model faults: each attempt may be answered by one (fault-response.ts).
    const call = modelFaultsOf(session) === undefined ? undefined : currentModelCall()
    const injected = call === undefined || call.session !== session ? undefined : answerFault(call, client, provider)
    if (injected !== undefined) return injected
    const steps = session[internals].get(STEPS)
    if (steps === undefined) return original.call(undefined, input, init)
    return exchange(steps, original, provider, typeof target.baseURL === 'string' ? target.baseURL : '', input, init)
  }
  Object.defineProperty(fetch, ORIGINAL, { value: original })
  target.fetch = fetch
}

type Steps = SessionSteps

function exchange(
  steps: Steps,
  original: Fetch,
  provider: string,
  baseURL: string,
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Response> {
  const request = readFetchRequest(input, init, baseURL)
  return request instanceof Promise ? request.then((read) => answer(steps, original, provider, read)) : answer(steps, original, provider, request)
}

async function answer(steps: Steps, original: Fetch, provider: string, request: FetchRequest): Promise<Response> {
  const { input, init } = request
  const endpoint = `${provider} ${request.method} ${request.path}`
  const answer =
    request.text === undefined
      ? steps.answerCall(endpoint, request.normal)
      : steps.answerCall(endpoint, request.normal, { text: request.text, omit: NOT_THE_ANSWER })
  if (answer.kind === 'failed') return responseFailingWith(answer.error, { stream: request.isStream() })
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
  if (answer.kind === 'recorded') {
    // As fetch does: a request whose signal has fired is never answered.
    signal?.throwIfAborted()
    const response = recordedResponse(answer.response, signal, answer.bodyText)
    replayedResponses.add(response)
    return response
  }
  let response: Response
  try {
    response = await original.call(undefined, request.input, request.init)
  } catch (error) {
    answer.done(undefined)
    const { unreachable } = answer
    const failure = unreachable === undefined ? undefined : unreachableBecause(error)
    if (unreachable === undefined || failure === undefined) throw error
    return responseFailingWith(unreachable(failure), { stream: request.isStream() })
  }
  return kept(response, answer.done)
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/**
 * A response rebuilt from its recording, for the SDK to parse as it parses
 * any. `bodyText`: its JSON body as text, when the recording wrote it already
 * (`JSON.stringify` of the body, made when the recording was opened).
 */
function recordedResponse(recorded: RecordedResponse, signal: AbortSignal | null | undefined, bodyText: string | undefined): Response {
  if (!('status' in recorded)) throw new Error('this recorded answer was made by a model, not over HTTP: record the call again')
  const { status } = recorded
  // The common case first, with nothing built per call.
  if (status < 400 && 'body' in recorded) return new Response(bodyText ?? JSON.stringify(recorded.body), { status, headers: JSON_HEADERS })
  // A recorded error is final: the SDK must not retry it.
  const headers: Record<string, string> = status >= 400 ? { 'x-should-retry': 'false' } : {}
  const init = (contentType: string): ResponseInit => ({ status, headers: { ...headers, 'content-type': contentType } })
  if ('body' in recorded) return new Response(bodyText ?? JSON.stringify(recorded.body), init('application/json'))
  if ('events' in recorded) return new Response(eventStreamBody(recorded.events, signal), init('text/event-stream'))
  if ('text' in recorded) return new Response(recorded.text, init(recorded.content_type))
  return new Response(Buffer.from(recorded.base64, 'base64'), init(recorded.content_type))
}

type Done = (response: (() => RecordedResponse) | undefined) => void

/** Hands `response` on, keeping a copy of its body for `done` (whole, or the events a stream's reader got). */
async function kept(response: Response, done: Done): Promise<Response> {
  const { status } = response
  if (isRetried(status) || response.body === null) {
    done(isRetried(status) ? undefined : () => ({ status, text: '', content_type: response.headers.get('content-type') ?? '' }))
    return response
  }
  const contentType = response.headers.get('content-type') ?? ''
  if (contentType.includes('text/event-stream')) return tapped(response, done)
  const bytes = new Uint8Array(await response.arrayBuffer())
  done(() => wholeBody(status, contentType, bytes))
  return new Response(bytes, { status, statusText: response.statusText, headers: response.headers })
}

function wholeBody(status: number, contentType: string, bytes: Uint8Array): RecordedResponse {
  if (contentType.includes('json') || contentType.startsWith('text/')) {
    const text = new TextDecoder().decode(bytes)
    try {
      return { status, body: JSON.parse(text) as JsonValue }
    } catch {
      return { status, text, content_type: contentType }
    }
  }
  return { status, base64: Buffer.from(bytes).toString('base64'), content_type: contentType }
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError'
}

/**
 * A streamed body passed through as its reader pulls it. Kept when it ends,
 * or when its reader stops early (a `break`, an abort: what arrived is what
 * the agent read, and a replay gives it the same); a stream that fails on
 * its own is not kept (the call failed).
 */
function tapped(response: Response, done: Done): Response {
  const reader = response.body!.getReader()
  const chunks: Uint8Array[] = []
  let isSettled = false
  const keep = (): void => {
    if (isSettled) return
    isSettled = true
    const { status } = response
    done(() => ({ status, events: parseEventStream(Buffer.concat(chunks).toString('utf8')) }))
  }
  const drop = (): void => {
    if (isSettled) return
    isSettled = true
    done(undefined)
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let step: Awaited<ReturnType<typeof reader.read>>
      try {
        step = await reader.read()
      } catch (error) {
        if (isAbort(error)) keep()
        else drop()
        controller.error(error)
        return
      }
      if (step.done) {
        keep()
        controller.close()
        return
      }
      chunks.push(step.value)
      controller.enqueue(step.value)
    },
    cancel(reason) {
      keep()
      return reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
