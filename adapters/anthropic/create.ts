/**
 * The instrumented `messages.create()`.
 *
 * `create()` returns an `APIPromise`: a lazy promise whose body is parsed only
 * when someone awaits it, with `withResponse()`, `asResponse()` and
 * `_thenUnwrap()` that the SDK's own helpers (`stream()`, `parse()`, message
 * threads) depend on. So the call is observed without ever awaiting it:
 *
 * - the parsed body, through `_thenUnwrap()`, which returns a new `APIPromise`
 *   over the same request (all three methods intact);
 * - API errors (4xx/5xx after the SDK's retries, connection failures), by
 *   watching the request itself; the agent still gets the error unchanged;
 * - a raw body taken with `asResponse()`, from a clone.
 *
 * Outside a session it calls the SDK and returns its promise untouched.
 */
import { currentSession, recordSafely } from '../../src/adapter-support.js'
import { ADAPTER, CallRecording } from './call-recording.js'
import { recordRawResponse } from './raw-response.js'
import { recordRequestToolResults } from './request-tool-results.js'
import { tapStream } from './tap-stream.js'
import type { WireCreateParams, WireMessage } from './wire.js'

export type CreateMethod = (this: unknown, ...args: unknown[]) => unknown

/** The parts of the SDK's `APIPromise` the adapter uses. */
interface ApiPromise {
  _thenUnwrap(transform: (data: unknown) => unknown): ApiPromise
  asResponse(): Promise<Response>
  /** The request in flight (`_responseProps()`; `responsePromise` in versions without it). */
  _responseProps?: () => Promise<unknown>
  responsePromise?: Promise<unknown>
  /** Set once the body is being parsed. */
  parsedPromise?: unknown
}

function isApiPromise(value: unknown): value is ApiPromise {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiPromise)._thenUnwrap === 'function' &&
    typeof (value as ApiPromise).asResponse === 'function'
  )
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

function receive(data: unknown, recording: CallRecording, isStream: boolean): void {
  if (isStream && isAsyncIterable(data)) tapStream(data, recording)
  else recording.finish(data as WireMessage)
}

function requestOf(promise: ApiPromise): Promise<unknown> | undefined {
  return typeof promise._responseProps === 'function' ? promise._responseProps() : promise.responsePromise
}

/**
 * `withResponse()` calls `asResponse()` too, after it has started parsing the
 * body (the SDK tells the two apart the same way, by `parsedPromise`); only an
 * `asResponse()` of its own leaves the body unparsed, so only then is the
 * clone read.
 */
function recordRawResponses(promise: ApiPromise, recording: CallRecording, isStream: boolean): void {
  const asResponse = promise.asResponse
  Object.defineProperty(promise, 'asResponse', {
    configurable: true,
    writable: true,
    value: function (this: ApiPromise): Promise<Response> {
      const isParsing = this.parsedPromise !== undefined
      return asResponse.call(this).then((response) => {
        if (!isParsing && !recording.done && !response.bodyUsed) {
          recordSafely(ADAPTER, 'a response read with asResponse()', () => recordRawResponse(response, recording, isStream))
        }
        return response
      })
    },
  })
}

function observe(result: unknown, recording: CallRecording, isStream: boolean): unknown {
  if (!isApiPromise(result)) {
    // Someone else's wrapper returned a plain promise: it runs anyway, so read it.
    Promise.resolve(result).then(
      (data) => recordSafely(ADAPTER, 'a response', () => receive(data, recording, isStream)),
      (error: unknown) => recording.finish(undefined, error),
    )
    return result
  }
  requestOf(result)?.then(undefined, (error: unknown) => recording.finish(undefined, error))
  const observed = result._thenUnwrap((data) => {
    recordSafely(ADAPTER, 'a response', () => receive(data, recording, isStream))
    return data
  })
  recordRawResponses(observed, recording, isStream)
  return observed
}

/** Wraps the SDK's `create` (of `messages` or `beta.messages`) so each call inside a session is recorded as one turn. */
export function instrumentCreate(original: CreateMethod): CreateMethod {
  return function create(this: unknown, ...args: unknown[]): unknown {
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
      recording.finish(undefined, error)
      throw error
    }
    return recordSafely(ADAPTER, 'a response', () => observe(result, recording, params.stream === true)) ?? result
  }
}
