/**
 * The APIPromise an instrumented `create` hands back, for the SDKs built by
 * Stainless (openai, @anthropic-ai/sdk): the SDK's own class (subclassed),
 * built on the same request and parser, so `await`, `withResponse()`,
 * `asResponse()` and `_thenUnwrap()` (which the SDKs' helpers build on:
 * `parse`, `stream`, `runTools`, message streams) behave as before.
 *
 * Recording hooks in at two points: the request in flight (a failed request
 * is recorded, and still rejects for whoever reads it) and the parser (a
 * parsed body is handed to the call, which records it, or taps it when it
 * is a stream). `asResponse()` hands the raw Response to the user and nothing
 * parses it, so the call is read from a clone of it, with the SDK's own
 * parser; the user's body stays unread.
 *
 * The class comes from the promise the SDK returned (never from an import:
 * shapes only here), so it is the very class of the user's copy of the SDK,
 * CJS or ESM.
 */
import type { ModelCall } from './model-call.js'
import { isReplayedResponse } from './recorded-fetch.js'
import { recordSafely } from '../warnings/record-safely.js'
import { isStream, tapStream } from './stream-tap.js'

/** What the SDK resolves its request to and hands its parser (only `response` and `controller` are read here). */
interface ResponseProps {
  response: Response
  controller: AbortController
}

type Parse = (client: unknown, props: ResponseProps) => unknown

interface ApiPromise<T> extends Promise<T> {
  _thenUnwrap<U>(transform: (data: T, props: ResponseProps) => U): ApiPromise<U>
  asResponse(): Promise<Response>
  withResponse(): Promise<unknown>
}

type ApiPromiseClass = new <T>(client: unknown, responsePromise: Promise<ResponseProps>, parseResponse: Parse) => ApiPromise<T>

/** The SDK's own fields of an APIPromise (TypeScript-private, plain properties at run time). */
interface Internals {
  responsePromise: Promise<ResponseProps>
  parseResponse: Parse
}

function internalsOf(promise: object): Internals | undefined {
  const { responsePromise, parseResponse } = promise as Partial<Internals>
  return responsePromise instanceof Promise && typeof parseResponse === 'function' ? { responsePromise, parseResponse } : undefined
}

/** What every promise derived from one call shares. */
interface CallState {
  readonly client: unknown
  readonly modelCall: ModelCall
  /** The parser that records; a derived promise's own parser adds its transform to it. */
  readonly parse: Parse
  /** One copy of a raw response is read per call. */
  isCopyTaken: boolean
}

type RecordingClass = new <T>(props: Promise<ResponseProps>, parse: Parse, call: CallState) => ApiPromise<T>

const recordingClasses = new WeakMap<ApiPromiseClass, RecordingClass>()

function recordingClassOf(Base: ApiPromiseClass): RecordingClass {
  let Recording = recordingClasses.get(Base)
  if (Recording === undefined) recordingClasses.set(Base, (Recording = defineRecordingClass(Base)))
  return Recording
}

function defineRecordingClass(Base: ApiPromiseClass): RecordingClass {
  class RecordingAPIPromise<T> extends Base<T> {
    readonly #props: Promise<ResponseProps>
    readonly #call: CallState
    #isInWithResponse = false

    constructor(props: Promise<ResponseProps>, parse: Parse, call: CallState) {
      super(call.client, props, parse)
      this.#props = props
      this.#call = call
    }

    override _thenUnwrap<U>(transform: (data: T, props: ResponseProps) => U): ApiPromise<U> {
      const derived = super._thenUnwrap(transform)
      const internals = internalsOf(derived)
      // The derived promise records already (its parser calls ours); this only keeps asResponse() recorded too.
      if (internals === undefined) return derived
      return new RecordingAPIPromise<U>(internals.responsePromise, internals.parseResponse, this.#call)
    }

    override withResponse(): Promise<unknown> {
      // withResponse() parses the body itself (and records it), then calls asResponse(): no copy needed.
      this.#isInWithResponse = true
      return super.withResponse()
    }

    override asResponse(): Promise<Response> {
      const response = super.asResponse()
      if (this.#isInWithResponse) return response
      return response.then((raw) => {
        this.#recordCopy(raw)
        return raw
      })
    }

    #recordCopy(raw: Response): void {
      const call = this.#call
      if (raw.bodyUsed || call.isCopyTaken || call.modelCall.isRecorded) return
      let copy: Response
      try {
        copy = raw.clone()
      } catch {
        // A body someone has started to read cannot be copied; the user's Response matters more.
        return
      }
      call.isCopyTaken = true
      const work = this.#props.then(async (props) => {
        const data = await call.parse(call.client, { ...props, response: copy, controller: new AbortController() })
        if (isStream(data)) for await (const event of data as AsyncIterable<unknown>) void event
      })
      // A failure here is the call's own, already recorded by the parser or the stream's tap.
      call.modelCall.track(work.catch(() => undefined))
    }
  }
  return RecordingAPIPromise as RecordingClass
}

/** Hands a parsed body to the call: a stream is tapped (and recorded as it is read), anything else is a whole response. */
function receive(call: ModelCall, data: unknown): void {
  if (isStream(data)) tapStream(data, call.adapter, call.stream())
  else call.receive(data)
}

/**
 * The promise `create` returned, recording into `call`: an APIPromise of the
 * same class, or, for a promise that is not one (another wrapper's), the
 * same promise, watched. `client` is the SDK client the call was made with.
 */
export function recordingPromise<P extends object>(original: P, client: unknown, call: ModelCall): P {
  const internals = internalsOf(original)
  if (internals === undefined) {
    if (typeof (original as { asResponse?: unknown }).asResponse === 'function' || typeof (original as { then?: unknown }).then !== 'function') {
      throw new Error('this SDK version has an APIPromise without responsePromise/parseResponse')
    }
    // A plain promise runs anyway: reading it changes nothing for its owner.
    ;(original as PromiseLike<unknown>).then(
      (data) => recordSafely(call.adapter, 'a response', () => receive(call, data)),
      (error: unknown) => call.fail(error),
    )
    return original
  }
  const { responsePromise, parseResponse } = internals
  const received = (data: unknown): unknown => {
    recordSafely(call.adapter, 'a response', () => receive(call, data))
    return data
  }
  const failed = (error: unknown): never => {
    call.fail(error)
    throw error
  }
  // Not an async function: the SDK's parser may answer synchronously, and a
  // recorded call should cost no more promises than it must.
  const parse: Parse = (parseClient, responseProps) => {
    let data: unknown
    try {
      data = parseResponse(parseClient, responseProps)
    } catch (error) {
      return failed(error)
    }
    return data instanceof Promise ? data.then(received, failed) : received(data)
  }
  const props = responsePromise.then((responseProps) => {
    // Answered by the instrumented fetch from a recording: the call is recorded as replayed.
    if (isReplayedResponse(responseProps.response)) call.markReplayed()
    return responseProps
  }, failed)
  const Recording = recordingClassOf(original.constructor as ApiPromiseClass)
  return new Recording(props, parse, { client, modelCall: call, parse, isCopyTaken: false }) as unknown as P
}
