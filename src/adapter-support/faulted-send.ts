/**
 * How a model call is made in a run with model faults (the `faults` option):
 * each attempt the SDK makes asks the run's faults first, before a
 * recording, a resumed run, a scripted model or the live model can answer,
 * so a fault is never kept as a step (a later replay never replays one).
 *
 * - Over HTTP (no exchange: the Stainless clients), the attempts are the
 *   client's requests: the call runs with itself as the current model call,
 *   and the instrumented `fetch` asks per request (fault-response.ts), so the
 *   client's own retries and error classes run.
 * - At the model's layer with a retry loop under it (`exchange.retrying`:
 *   LangChain's AsyncCaller), each turn of that loop is an attempt.
 * - At the model's layer over a Stainless client (`exchange.client`: the
 *   Agents SDK's models), that client's `fetch` answers, as over HTTP;
 *   except when a recording or a resumed run answers the call (no request
 *   is made then): the fault fails the call before it, with the error the
 *   client raises for it, and the client's retries do not run.
 * - At the model's layer otherwise (the AI SDK, whose retries run above the
 *   middleware, each retry a call of its own), the call is the attempt: a
 *   faulted one fails with the error the SDK's provider would raise
 *   (`exchange.faultError`), else a `ModelFaultError`.
 */
import type { ModelFault } from '../faults/faults-option.js'
import { describeModelFault, modelFaultError } from '../faults/model-fault.js'
import { STEPS } from '../replay/session-feature.js'
import { internals } from '../session/internals.js'
import { answerFaultsInFetch, clientFaultError } from './fault-response.js'
import type { ModelExchange } from './model-api.js'
import type { CallInFlight } from './call-in-flight.js'

export function sendWithFaults<R>(call: CallInFlight, make: () => R, exchange: ModelExchange<R> | undefined, answer: () => R): R {
  if (exchange === undefined) return call.run(make)
  const { model, provider } = call.asked
  const http = exchange.client?.()
  if (http !== undefined && call.session[internals].get(STEPS)?.answers !== true) {
    answerFaultsInFetch(http.client, http.provider)
    return iteratedInCall(call, call.run(answer))
  }
  const errorOf = (fault: ModelFault): unknown => {
    if (http !== undefined) return clientFaultError(http.client, fault, model, http.provider)
    if (exchange.faultError === undefined) return modelFaultError(fault, model, provider)
    return exchange.faultError(describeModelFault(fault, model, provider))
  }
  if (exchange.retrying !== undefined) {
    const attempt = (): void => {
      const injected = call.injectFault(errorOf)
      if (injected !== undefined) throw injected.error
    }
    return exchange.retrying(attempt, answer)
  }
  const injected = call.injectFault(errorOf)
  return injected === undefined ? answer() : exchange.fail(injected.error as Error)
}

/**
 * A stream the model returns (an async generator: the Agents SDK's
 * `getStreamedResponse`) makes its requests when it is read, in the context
 * of its reader: read through this, each step runs as part of `call`, so the
 * client's `fetch` still finds it. Anything else is returned as it is.
 */
function iteratedInCall<R>(call: CallInFlight, made: R): R {
  if (made === null || typeof made !== 'object' || 'then' in made || !(Symbol.asyncIterator in made)) return made
  const iterator = (made as AsyncIterable<unknown>)[Symbol.asyncIterator]()
  const inCall =
    (method: 'next' | 'return' | 'throw') =>
    (value?: unknown): Promise<IteratorResult<unknown>> => {
      const step = iterator[method]
      if (step === undefined) return Promise.resolve({ done: true, value })
      return call.run(() => step.call(iterator, value))
    }
  const wrapped: AsyncIterableIterator<unknown> = {
    next: inCall('next'),
    return: inCall('return'),
    throw: inCall('throw'),
    [Symbol.asyncIterator]() {
      return wrapped
    },
  }
  return wrapped as R
}
