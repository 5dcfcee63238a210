/**
 * Whether the model call being made is recorded by `recordedGenerate`
 * (recorded-generate.ts) already: a `reagentMiddleware()` under it then lets
 * the call through, so a model wrapped with the middleware and asked through
 * `recordedGenerate` is recorded once.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

// On `globalThis` under a registry symbol, so the copy of the middleware a user's entry loaded sees the flag another copy sets.
const KEY = Symbol.for('reagent-flow.ai-sdk.recorded-above.v1')
const holder = globalThis as { [KEY]?: AsyncLocalStorage<true> }
const recordedAbove = (holder[KEY] ??= new AsyncLocalStorage<true>())

/** True inside a model call `recordedGenerate` records. */
export function isRecordedAbove(): boolean {
  return recordedAbove.getStore() === true
}

/** Runs `fn` (the model's own `doGenerate` / `doStream`) as a call recorded above. */
export function runRecordedAbove<T>(fn: () => T): T {
  return recordedAbove.run(true, fn)
}
