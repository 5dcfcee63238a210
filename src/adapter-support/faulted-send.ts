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
 * - At the model's layer otherwise (the AI SDK, whose retries run above the
 *   middleware, each retry a call of its own), the call is the attempt: a
 *   faulted one fails with the error the SDK's provider would raise
 *   (`exchange.faultError`), else a `ModelFaultError`.
 */
import { runInModelCall } from '../context.js'
import type { ModelFault } from '../faults/faults-option.js'
import { describeModelFault, modelFaultError } from '../faults/model-fault.js'
import type { ModelExchange } from './model-api.js'
import type { ModelCall } from './model-call.js'

export function sendWithFaults<R>(call: ModelCall, make: () => R, exchange: ModelExchange<R> | undefined, answer: () => R): R {
  if (exchange === undefined) return runInModelCall(call, make)
  const { model, provider } = call.asked
  const errorOf = (fault: ModelFault): Error => {
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
  return injected === undefined ? answer() : exchange.fail(injected.error)
}
