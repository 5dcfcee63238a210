/**
 * The APIPromise handed back by an instrumented `create`: the SDK's own
 * class (subclassed), built on the same response promise and parser, so
 * `await`, `withResponse()`, `asResponse()` and `_thenUnwrap()` (which the
 * SDK's `parse`, `stream` and `runTools` helpers build on) behave as before.
 *
 * Recording hooks in at two points: the response promise (a failed request
 * is recorded, and still rejects for whoever reads it) and the parser (a
 * parsed body is recorded, a stream is watched). `asResponse()` hands the
 * raw Response to the user and nothing parses it, so the turn is read from a
 * clone of it; the user's body stays unread.
 *
 * The class comes from the promise the SDK returned (not from an import), so
 * it is the very class of the user's copy of `openai`, CJS or ESM.
 */
import type { APIPromise } from 'openai'
import type { LlmCall } from './llm-call.js'
import { isStream } from './stream-tap.js'

type ApiPromiseClass = typeof APIPromise
type Client = ConstructorParameters<ApiPromiseClass>[0]
type ResponseProps = Awaited<ConstructorParameters<ApiPromiseClass>[1]>
type Parse = NonNullable<ConstructorParameters<ApiPromiseClass>[2]>

/** The SDK's own fields of an APIPromise (TypeScript-private, plain properties at run time). */
interface Internals {
  responsePromise: Promise<ResponseProps>
  parseResponse: Parse
}

function internalsOf(promise: object): Internals | undefined {
  const { responsePromise, parseResponse } = promise as Partial<Internals>
  return responsePromise instanceof Promise && typeof parseResponse === 'function' ? { responsePromise, parseResponse } : undefined
}

type RecordingClass = new <T>(client: Client, props: Promise<ResponseProps>, parse: Parse, call: LlmCall, recordingParse: Parse) => APIPromise<T>

const recordingClasses = new WeakMap<ApiPromiseClass, RecordingClass>()

function recordingClassOf(Base: ApiPromiseClass): RecordingClass {
  let Recording = recordingClasses.get(Base)
  if (Recording === undefined) recordingClasses.set(Base, (Recording = defineRecordingClass(Base)))
  return Recording
}

function defineRecordingClass(Base: ApiPromiseClass): RecordingClass {
  class RecordingAPIPromise<T> extends Base<T> {
    readonly #client: Client
    readonly #props: Promise<ResponseProps>
    readonly #call: LlmCall
    /** The parser that records; a derived promise's own parser adds its transform to it. */
    readonly #recordingParse: Parse
    #isInWithResponse = false

    constructor(client: Client, props: Promise<ResponseProps>, parse: Parse, call: LlmCall, recordingParse: Parse) {
      // The parser yields what the SDK's parser yields (T); its type says unknown.
      super(client, props, parse as ConstructorParameters<typeof Base<T>>[2])
      this.#client = client
      this.#props = props
      this.#call = call
      this.#recordingParse = recordingParse
    }

    override _thenUnwrap<U>(transform: (data: T, props: ResponseProps) => U): APIPromise<U> {
      const derived = super._thenUnwrap(transform)
      const internals = internalsOf(derived)
      // The derived promise records already (its parser calls ours); this only keeps asResponse() recorded too.
      if (internals === undefined) return derived
      return new RecordingAPIPromise<U>(this.#client, internals.responsePromise, internals.parseResponse, this.#call, this.#recordingParse)
    }

    override withResponse(): Promise<{ data: T; response: Response; request_id: string | null }> {
      // withResponse() parses the body itself (and records it): no copy needed.
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
      if (raw.bodyUsed || !this.#call.takeCopy()) return
      let copy: Response
      try {
        copy = raw.clone()
      } catch {
        // A body someone has started to read cannot be copied; the user's Response matters more.
        return
      }
      const work = this.#props.then(async (props) => {
        const data = await this.#recordingParse(this.#client, { ...props, response: copy, controller: new AbortController() })
        if (!isStream(data)) return
        const events = data.iterator()
        while ((await events.next()).done !== true);
      })
      // A failure here is the call's own, already recorded by the parser or the stream watch.
      this.#call.track(work.catch(() => undefined))
    }
  }
  return RecordingAPIPromise as RecordingClass
}

/** Wraps the APIPromise an SDK `create` returned so that its outcome is recorded by `call`. */
export function recordingPromise<T>(original: APIPromise<T>, client: Client, call: LlmCall): APIPromise<T> {
  const internals = internalsOf(original)
  if (internals === undefined) throw new Error('this version of openai has an APIPromise without responsePromise/parseResponse')
  const { responsePromise, parseResponse } = internals
  const received = (data: unknown): unknown => {
    call.receive(data)
    return data
  }
  const failed = (error: unknown): never => {
    call.fail(error)
    throw error
  }
  // Not an async function: the SDK's parser may answer synchronously, and a
  // recorded call should cost no more promises than it must.
  const parse = ((parseClient, responseProps) => {
    let data: unknown
    try {
      data = parseResponse(parseClient, responseProps)
    } catch (error) {
      return failed(error)
    }
    return data instanceof Promise ? data.then(received, failed) : received(data)
  }) as Parse
  const props = responsePromise.then(undefined, failed)
  const Recording = recordingClassOf(original.constructor as ApiPromiseClass)
  return new Recording<T>(client, props, parse, call, parse)
}
