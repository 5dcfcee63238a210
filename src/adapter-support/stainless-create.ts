/**
 * The instrumented `create` of the SDKs built by Stainless (openai,
 * @anthropic-ai/sdk): outside a session it only checks the context and calls
 * the SDK's method; inside one it starts a ModelCall, makes the call through
 * it, and hands back a recording APIPromise of the SDK's own class (see
 * recording-promise.ts). The SDKs' helpers (`parse`, `stream`, `runTools`,
 * `messages.stream()`, tool runners) call `this._client.<resource>.create`,
 * so they come through here too, and are recorded once.
 */
import { currentSession } from '../session/context.js'
import type { ModelApi } from './model-api.js'
import { startModelCall } from './model-call.js'
import { recordSafely } from '../warnings/record-safely.js'
import { recordingPromise } from './recording-promise.js'

type Create = (this: unknown, ...args: never[]) => unknown

/** The request body `create` was given, as an object (an SDK call without one still records). */
function bodyOf(args: readonly unknown[]): Record<string, unknown> {
  const body = args[0]
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}
}

/**
 * Builds, for `patchMethod`, the replacement of a resource's `create` of
 * `client`, recording each call made inside a session as `api` translates it.
 *
 * @example patchMethod(client.chat.completions, 'create', recordedCreate(client, chatCompletions))
 */
export function recordedCreate<C extends Create>(client: object, api: ModelApi<Record<string, unknown>, unknown>): (create: C) => C {
  return (create) =>
    function (this: unknown, ...args: never[]): unknown {
      const session = currentSession()
      if (session === undefined) return create.apply(this, args)
      const call = startModelCall(session, api, bodyOf(args))
      if (call === undefined) return create.apply(this, args)
      const promise = call.send(() => create.apply(this, args))
      if (promise === null || typeof promise !== 'object') return promise
      return recordSafely(api.adapter, 'a response', () => recordingPromise(promise, client, call)) ?? promise
    } as C
}
