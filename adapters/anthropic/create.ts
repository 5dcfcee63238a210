/**
 * The instrumented `messages.create()`.
 *
 * `create()` returns an `APIPromise`: a lazy promise whose body is parsed only
 * when someone awaits it, with `withResponse()`, `asResponse()` and
 * `_thenUnwrap()` that the SDK's own helpers (`stream()`, `parse()`, message
 * threads) depend on. Inside a session it hands back a recording APIPromise
 * of the same class (adapter-support's `recordingPromise`): the parsed body,
 * a stream as it is read, an API error, and a raw body taken with
 * `asResponse()` (from a clone) are recorded, and the promise behaves as the
 * SDK's. Outside a session it calls the SDK and returns its promise untouched.
 */
import { currentSession, recordingPromise, recordSafely } from '../../src/adapter-support.js'
import { ADAPTER, CallRecording } from './call-recording.js'
import { recordRequestToolResults } from './request-tool-results.js'
import type { WireCreateParams } from './wire.js'

type CreateMethod = (this: unknown, ...args: unknown[]) => unknown

/** Wraps the SDK's `create` (of `messages` or `beta.messages` of `client`) so each call inside a session is recorded as one turn. */
export function instrumentCreate(client: object): (original: CreateMethod) => CreateMethod {
  return (original) =>
    function create(this: unknown, ...args: unknown[]): unknown {
      const session = currentSession()
      if (session === undefined) return original.apply(this, args)
      const params = (typeof args[0] === 'object' && args[0] !== null ? args[0] : {}) as WireCreateParams
      recordSafely(ADAPTER, 'the tool results of a request', () => recordRequestToolResults(session, params.messages))
      const recording = recordSafely(ADAPTER, 'a request', () => new CallRecording(session, params))
      if (recording === undefined) return original.apply(this, args)
      let result: unknown
      try {
        result = original.apply(this, args)
      } catch (error) {
        recording.fail(error)
        throw error
      }
      if (result === null || typeof result !== 'object') return result
      return recordSafely(ADAPTER, 'a response', () => recordingPromise(result, client, recording)) ?? result
    }
}
