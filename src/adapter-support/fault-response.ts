/**
 * An injected model fault (the `faults` option), answered by a Stainless
 * client's instrumented `fetch` (openai, @anthropic-ai/sdk), one attempt at
 * a time, the way the provider fails a request: so the client's own retry
 * rules run (its `maxRetries`, its `retry-after-ms` handling) and, once it
 * gives up, its own error class reaches the agent.
 *
 * - A status is an error response with the provider's error body and a
 *   retry delay of a millisecond: the client raises `RateLimitError`,
 *   `InternalServerError`, Anthropic's `OverloadedError`...
 * - A timeout is the rejection `fetch` gives when the client's own timeout
 *   signal aborts it, an `AbortError`, at once: the client takes it for its
 *   timeout and raises `APIConnectionTimeoutError`. A timeout has no
 *   response to carry a retry delay, so the client waits its own backoff
 *   (about half a second, then a second) before each retry of one.
 *
 * The attempt is recorded with the error the client raises from it, built
 * by the client's own `makeStatusError` (the method it builds it with), so a
 * retried attempt's turn says what the agent would have been told.
 */
import { currentModelCall } from './model-call-context.js'
import type { ModelFault } from '../faults/faults-option.js'
import { describeModelFault, modelFaultError, type DescribedFault } from '../faults/model-fault.js'
import type { CallInFlight } from './call-in-flight.js'
import { markInstrumented } from './patch.js'

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

const FAULTS = Symbol.for('reagent-flow.fault-fetch')

type StatusErrorMaker = (status: number, body: unknown, message: string | undefined, headers: Headers) => unknown

/** The error `client` raises from a faulted attempt: its own class where it shows how, else a `ModelFaultError`. */
export function clientFaultError(client: object, fault: ModelFault, model: string | null, provider: string): unknown {
  return clientError(client, fault, describeModelFault(fault, model, provider), model, provider)
}

function clientError(client: object, fault: ModelFault, described: DescribedFault, model: string | null, provider: string): unknown {
  try {
    if (described.status !== undefined) {
      const make = (client as { makeStatusError?: unknown }).makeStatusError
      if (typeof make === 'function')
        return (make as StatusErrorMaker).call(client, described.status, described.body, undefined, new Headers(described.headers))
    } else {
      const Timeout = (client.constructor as { APIConnectionTimeoutError?: unknown }).APIConnectionTimeoutError
      if (typeof Timeout === 'function') return new (Timeout as new () => unknown)()
    }
  } catch {
    // A client of another shape: the trace says what the fault was, in our words.
  }
  return modelFaultError(fault, model, provider)
}

/**
 * Asks the run's faults about this attempt of `call`, made by `client` of
 * `provider`: the answer of a failed attempt (an error response, or a
 * rejection), or undefined when it goes on.
 */
export function answerFault(call: CallInFlight, client: object, provider: string): Promise<Response> | undefined {
  const { model } = call.asked
  let described: DescribedFault | undefined
  const injected = call.injectFault((fault) => {
    described = describeModelFault(fault, model, provider)
    return clientError(client, fault, described, model, provider)
  })
  if (injected === undefined || described === undefined) return undefined
  const { status, body, headers } = described
  // What undici rejects with when the client's timeout signal fires.
  if (status === undefined) return Promise.reject(new DOMException('This operation was aborted', 'AbortError'))
  return Promise.resolve(Response.json(body, { status, headers }))
}

/**
 * Makes `client`'s `fetch` answer injected faults, and nothing else: for a
 * client an SDK makes its model calls with at its own layer (the Agents
 * SDK's models), whose requests are recorded there, not over HTTP. Each
 * request made inside a model call of a run with model faults asks them
 * (see faulted-send.ts). Once per client.
 */
export function answerFaultsInFetch(client: object, provider: string): void {
  const target = client as { fetch?: unknown }
  const original = target.fetch
  if (typeof original !== 'function' || !markInstrumented(client, FAULTS)) return
  target.fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = currentModelCall()
    return (call === undefined ? undefined : answerFault(call, client, provider)) ?? (original as Fetch).call(undefined, input, init)
  }
}
