/**
 * Replaces one resource's `create` on this client instance (the prototype,
 * shared by every client, is left alone). Outside a session the replacement
 * only checks the context and calls the SDK's method. Inside one it starts
 * an LlmCall, then hands back a recording APIPromise. The SDK's helpers
 * (`parse`, `stream`, `runTools`) call `this._client.<resource>.create`, so
 * they come through here too.
 */
import type { APIPromise, OpenAI } from 'openai'
import { currentSession, patchMethod, recordingPromise, recordSafely } from '../../src/adapter-support.js'
import { ADAPTER, LlmCall } from './llm-call.js'
import type { ApiTranslator } from './types.js'

type Create = (this: unknown, body: unknown, options?: unknown) => APIPromise<unknown>

export function patchCreate(client: OpenAI, resource: object | undefined, api: ApiTranslator): void {
  patchMethod<Create>(resource, 'create', (create) =>
    function (this: unknown, body: unknown, options?: unknown): APIPromise<unknown> {
      const s = currentSession()
      if (s === undefined) return create.call(this, body, options)
      const call = recordSafely(ADAPTER, `the request of ${api.method}`, () => new LlmCall(s, api, asObject(body)))
      const promise = create.call(this, body, options)
      if (call === undefined) return promise
      return recordSafely(ADAPTER, `the response of ${api.method}`, () => recordingPromise(promise, client, call)) ?? promise
    },
  )
}

function asObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}
}
