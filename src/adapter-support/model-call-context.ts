/**
 * The model call whose SDK method the current code runs in. Kept on
 * `globalThis` under a registry symbol, as the session's store is
 * (session/context.ts), so every copy of reagent-flow in a process shares it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { CallInFlight } from './call-in-flight.js'

const CALL_KEY = Symbol.for('reagent-flow.model-call.v1')
const holder = globalThis as { [CALL_KEY]?: AsyncLocalStorage<CallInFlight> }
const callStore = (holder[CALL_KEY] ??= new AsyncLocalStorage<CallInFlight>())

/**
 * Runs `fn` (an SDK method making a model call) with `call` as the call its
 * HTTP requests are attempts of: an instrumented client's `fetch` asks it,
 * per attempt, whether an injected fault answers (see recorded-fetch.ts).
 */
export function runInModelCall<T>(call: CallInFlight, fn: () => T): T {
  return callStore.run(call, fn)
}

/** The model call whose SDK method the current code runs in (see runInModelCall), while it is open. */
export function currentModelCall(): CallInFlight | undefined {
  const call = callStore.getStore()
  return call === undefined || call.isRecorded ? undefined : call
}
