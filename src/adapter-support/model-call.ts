/**
 * One model call, from its request to its turn in the trace: the lifecycle
 * every adapter shares. An adapter starts it when the SDK is asked for a
 * call, makes the call through `send`, then hands over what came back:
 * `receive` (a whole response), `stream` (a fold fed with the events as the
 * caller reads them) or `fail`. Whichever way the call ends, it is recorded
 * exactly once, as one turn:
 *
 * - a whole response, when it is received;
 * - a stream, when its last event arrives, or when its reading ends: read to
 *   its end, closed by its reader (`break`, `return()`), aborted, or failed;
 *   a stream left before its last event is recorded with what arrived and an
 *   error saying so;
 * - a failed call, with the error;
 * - a call still open when its session closes, with what arrived and
 *   `SESSION_CLOSED` (see open-calls.ts).
 *
 * An attempt that an injected fault failed (the `faults` option) and the SDK
 * then retried is one more turn, before the call's own: its LLM call has the
 * error the SDK raised from it and `injected: true`. The call's own turn is
 * marked too when its last attempt was the injected one.
 *
 * The session is the one the call started in: concurrent sessions sharing a
 * client never mix, and a stream read elsewhere still records into it.
 *
 * Seams for what comes next (docs/decisions/017-one-call-lifecycle.md): the
 * call knows its provider and request before it is made, and `send` is the
 * one place it is made, where a recording, an injected fault or a scripted
 * model can answer instead.
 */
import type { ModelFault } from '../faults/faults-option.js'
import { modelFaultsOf } from '../faults/session-feature.js'
import type { LlmCallInput } from '../session/recorder.js'
import { STEPS } from '../replay/session-feature.js'
import type { Session } from '../session/session.js'
import { epochSeconds } from '../trace/ids.js'
import { runInModelCall } from './model-call-context.js'
import type { CallInFlight } from './call-in-flight.js'
import { sendWithFaults } from './faulted-send.js'
import { markNotRetryable } from '../http/failing-response.js'
import { incompleteBecause } from './incomplete-stream.js'
import type { ModelApi, ModelExchange, ModelRequest, ModelResponse, ProviderToolResult, StreamFold } from './model-api.js'
import { openCall, SESSION_CLOSED } from './open-calls.js'
import { unreachableAsMiss } from './unreachable.js'
import { toolSetFor } from './offered-tools.js'
import type { ToolSet } from '../trace/tool-sets.js'
import { recordSafely, reportRecordingFailure } from '../warnings/record-safely.js'
import type { StreamWatch } from './stream-tap.js'
import { internals } from '../session/internals.js'

/** What a call that never got a response records. */
const NO_RESPONSE: ModelResponse = Object.freeze({ toolCalls: Object.freeze([]), responseText: null, model: null, tokenUsage: null, stopReason: null })
const noResponse = (): ModelResponse => NO_RESPONSE

/**
 * Starts a call of `session` described by `raw` (the SDK's request): reads
 * the request, records the tool results it hands back, and opens the call.
 * Undefined when the request cannot be read (warned about once): the call
 * then goes on unrecorded.
 *
 * Throws `BudgetExceededError` when the run has gone past its limits (the
 * `limits` option): the call is not made, and the error reaches the caller.
 */
export function startModelCall<Request, Response, Event>(
  session: Session,
  api: ModelApi<Request, Response, Event>,
  raw: Request,
): ModelCall<Response, Event> | undefined {
  // Read first: the tool results the request hands back are recorded even when the call is stopped.
  const call = recordSafely(api.adapter, 'a request', () => new ModelCall(session, api, api.request(raw)))
  const stop = session[internals].admitModelCall()
  if (stop === undefined) return call
  call?.withdraw()
  throw stop
}

export class ModelCall<Response = unknown, Event = unknown> implements CallInFlight {
  readonly #session: Session
  readonly #api: ModelApi<never, Response, Event>
  readonly #request: ModelRequest
  /** The tools the request offered, read when it started (the agent may change its list later). */
  readonly #toolSet: ToolSet | undefined
  /** When the call (its attempt after an injected failure) started: epoch seconds for the trace, `performance.now()` for its latency. */
  #timestamp = epochSeconds()
  #startedAt = performance.now()
  /** The attempt an injected fault failed, not in the trace yet: the SDK retries it (a turn of its own) or gives up (the call's error). */
  #failedAttempt: { error: unknown; failedAt: number } | undefined
  /** Leaves the session's open calls. */
  readonly #leave: () => void
  /** What has arrived so far: nothing until a stream starts, then what it folded. */
  #partial: () => ModelResponse = noResponse
  #isRecorded = false
  /** Answered from a recording or a resumed run, not by the model. */
  #isReplayed = false

  constructor(session: Session, api: ModelApi<never, Response, Event>, request: ModelRequest) {
    this.#session = session
    this.#api = api
    this.#request = request
    const { toolResults, tools } = request
    this.#toolSet = tools === undefined ? undefined : recordSafely(api.adapter, 'the tools of a request', () => toolSetFor(tools))
    if (toolResults !== undefined && toolResults.length > 0) {
      recordSafely(api.adapter, 'the tool results of a request', () => {
        for (const { callId, outcome } of toolResults) session[internals].logResultOf(callId, outcome)
      })
    }
    this.#leave = openCall(session, (reason) => this.cutShort(reason))
  }

  /** The adapter, as warnings name it. */
  get adapter(): string {
    return this.#api.adapter
  }

  get session(): Session {
    return this.#session
  }

  /** Who the request is for: the model it asks for and its provider (null when it names none). */
  get asked(): { model: string | null; provider: string | null } {
    return { model: this.#request.model, provider: this.#request.provider }
  }

  /** True once the call is in the trace (or its recording was attempted and failed): anything later is ignored. */
  get isRecorded(): boolean {
    return this.#isRecorded
  }

  /**
   * Runs `fn` (an SDK method making this call, or a step of the stream it
   * returned) with this call as the one its HTTP requests are attempts of:
   * an instrumented client's `fetch` asks it, per attempt, whether an
   * injected fault answers (see recorded-fetch.ts).
   */
  run<T>(fn: () => T): T {
    return runInModelCall(this, fn)
  }

  /**
   * Makes the call: `make` calls the SDK. With an `exchange` (a call answered
   * at the model's own layer), the session's steps say how it is answered:
   * from a recording or the resumed run (`rebuild`, no model called), failed
   * (`fail`: a replay with no match), or by the model (`make`, its result
   * `capture`d to keep). Without one, the HTTP layer under the SDK answers
   * (an instrumented client's `fetch`, see recorded-fetch.ts). A call that
   * throws at once is recorded as failed, and the error rethrown unchanged.
   * What `make` returns is otherwise not touched (the Stainless SDKs'
   * promises are lazy).
   */
  send<R>(make: () => R, exchange?: ModelExchange<R>): R {
    try {
      const answer = (): R => this.#answer(make, exchange)
      // Injected faults answer before anything else (faulted-send.ts); most runs have none.
      return modelFaultsOf(this.#session) === undefined ? answer() : sendWithFaults(this, make, exchange, answer)
    } catch (error) {
      this.fail(error)
      throw error
    }
  }

  /**
   * An attempt of the call begins (the SDK's first request, or its retry of
   * a failed one): asks the run's faults (the `faults` option) whether it
   * fails. The attempt before it, if an injected fault failed it, becomes a
   * turn of its own (the SDK retried it). When this one fails, returns the
   * fault and `errorOf(fault)`, the error the SDK raises from it, which the
   * attempt is recorded with.
   */
  injectFault<E>(errorOf: (fault: ModelFault) => E): { fault: ModelFault; error: E } | undefined {
    if (this.#isRecorded) return undefined
    this.#recordFailedAttempt()
    const fault = modelFaultsOf(this.#session)?.modelCall(this.#request.model)
    if (fault === undefined) return undefined
    const error = errorOf(fault)
    this.#failedAttempt = { error, failedAt: performance.now() }
    return { fault, error }
  }

  /** How the call is answered at the model's layer (`exchange`), or by `make` (the HTTP layer under it answers). */
  #answer<R>(make: () => R, exchange: ModelExchange<R> | undefined): R {
    const steps = exchange === undefined ? undefined : this.#session[internals].get(STEPS)
    if (steps === undefined || exchange === undefined) return make()
    // Read now: the SDK (or the agent) may change the objects of the request once the call is made.
    const request = exchange.request()
    const answer = steps.answerCall(exchange.endpoint, () => request)
    if (answer.kind === 'recorded') {
      this.#isReplayed = true
      return exchange.rebuild(answer.response)
    }
    if (answer.kind === 'failed') return exchange.fail(answer.error)
    const { unreachable } = answer
    return exchange.capture(unreachable === undefined ? make() : unreachableAsMiss(make(), (failure) => markNotRetryable(unreachable(failure))), answer.done)
  }

  /** The HTTP layer answered the call from a recording (or a resumed run): its LLM call says `replayed: true`. */
  markReplayed(): void {
    this.#isReplayed = true
  }

  /** The call was stopped before it was made (its run's limits): it leaves the session's open calls, and no turn is recorded. */
  withdraw(): void {
    if (this.#isRecorded) return
    this.#isRecorded = true
    this.#leave()
  }

  /** A whole response: recorded now. */
  receive(raw: Response): void {
    this.#record(() => this.#api.response(raw))
  }

  /**
   * The response is a stream: returns the watch to feed with its events and
   * its end (adapter-support's `tapStream` takes it as it is). A fold that
   * throws is warned about once and given no more events; the call is still
   * recorded, with what it folded.
   */
  stream(): StreamWatch<Event> {
    const fold = this.#foldOf()
    this.#partial = () => fold.result()
    let isFolding = true
    return {
      onEvent: (event) => {
        if (this.#isRecorded || !isFolding) return
        try {
          fold.add(event)
        } catch (error) {
          isFolding = false
          reportRecordingFailure(this.#api.adapter, 'a streamed event', error)
          return
        }
        if (fold.isComplete === true) this.#record(() => fold.result())
      },
      onEnd: (end) =>
        this.#record(() => {
          const response = fold.result()
          // The reader's error first, then the response's own, then why it is incomplete.
          const error = end.how === 'error' ? end.error : (response.error ?? incompleteBecause(end, fold))
          return error === undefined ? response : { ...response, error }
        }),
    }
  }

  /** The call failed: an API error (after the SDK's retries), a broken connection, an unreadable body. */
  fail(error: unknown): void {
    this.#record(() => ({ ...NO_RESPONSE, error }))
  }

  /**
   * The session is closing before the call ended: records what arrived,
   * with `reason` as its error, once the API's `settle` work is done (it may
   * still end the call). The session's open-call registry calls this.
   */
  cutShort(reason: string = SESSION_CLOSED): void | Promise<void> {
    if (this.#isRecorded) return
    const record = (): void => this.#record(() => ({ ...this.#partial(), error: reason }))
    if (this.#api.settle === undefined) return record()
    return this.#api.settle().then(record, record)
  }

  /** Keeps the session open until `work` (recording work that ends on its own) settles. */
  track(work: Promise<unknown>): void {
    this.#session[internals].track(work)
  }

  #foldOf(): StreamFold<Event> {
    const fold = this.#api.stream?.()
    if (fold === undefined) throw new Error(`${this.#api.adapter} has no stream fold for ${this.#api.operation}`)
    return fold
  }

  /** The attempt an injected fault failed is followed by another: it is a turn of its own, and the call starts again now. */
  #recordFailedAttempt(): void {
    const failed = this.#failedAttempt
    if (failed === undefined) return
    this.#failedAttempt = undefined
    recordSafely(this.#api.adapter, 'a failed attempt', () => this.#recordAttempt(failed))
    this.#timestamp = epochSeconds()
    this.#startedAt = performance.now()
  }

  #record(read: () => ModelResponse): void {
    if (this.#isRecorded) return
    this.#isRecorded = true
    this.#leave()
    const endedAt = performance.now()
    const failed = this.#failedAttempt
    this.#failedAttempt = undefined
    const api = this.#api
    recordSafely(api.adapter, api.operation, () => {
      const response = read()
      // A failure after an injected attempt is that attempt's, as the SDK raised it once it gave up retrying.
      const isInjected = failed !== undefined && response.error !== undefined
      if (failed !== undefined && !isInjected) this.#recordAttempt(failed)
      const call = this.#callInput(response, endedAt, isInjected)
      if (this.#isReplayed) call.replayed = true
      // Admitted when it started: counted toward the run's limits, never stopped by them now that it happened.
      this.#session[internals].recordModelCall(call, this.#toolSet)
      if (response.providerToolResults !== undefined) for (const result of response.providerToolResults) this.#logProviderResult(result)
    })
    if (api.afterRecord !== undefined) recordSafely(api.adapter, 'the results waiting for a call', () => api.afterRecord!(this.#session))
  }

  /** A failed attempt, as an LLM call with the error the SDK raised from it. */
  #recordAttempt({ error, failedAt }: { error: unknown; failedAt: number }): void {
    this.#session[internals].recordModelCall(this.#callInput({ ...NO_RESPONSE, error }, failedAt, true), this.#toolSet)
  }

  /** The LLM call of `response`, from the request and the (attempt's) start to `endedAt`. */
  #callInput(response: ModelResponse, endedAt: number, isInjected: boolean): LlmCallInput {
    const request = this.#request
    const call: LlmCallInput = {
      messages: request.messages,
      model: response.model ?? request.model,
      toolCalls: response.toolCalls,
      responseText: response.responseText,
      tokenUsage: response.tokenUsage,
      stopReason: response.stopReason,
      latencyMs: endedAt - this.#startedAt,
      timestamp: this.#timestamp,
    }
    if (request.provider !== null) call.provider = request.provider
    if (response.error !== undefined) call.error = response.error
    if (isInjected) call.injected = true
    return call
  }

  /** A tool the provider ran inside the response took no time of its own; a result whose call is unknown is kept all the same, unmatched. */
  #logProviderResult({ callId, name, outcome }: ProviderToolResult): void {
    const s = this.#session
    if (s[internals].toolNameOf(callId) !== undefined) s[internals].logResultOf(callId, outcome, 0)
    else s.logToolResult(name, { ...outcome(), callId, durationMs: 0 })
  }
}
