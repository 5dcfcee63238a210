/**
 * The recording of one `messages.create()` call, from the request to the end
 * of its response. Whatever way the call ends (a message, the end of a
 * stream, an API error, a stream cut short, the session closing first), it is
 * recorded exactly once, as one turn.
 *
 * A streamed response is recorded at `message_stop`; a stream that fails, is
 * closed by its reader (`break`, `controller.abort()`), or ends without
 * `message_stop` is recorded with what arrived and the reason it is incomplete.
 */
import {
  epochSeconds,
  isStream,
  openCall,
  recordSafely,
  tapStream,
  type LlmCallInput,
  type ResponseWatch,
  type Session,
  type StreamEnd,
} from '../../src/adapter-support.js'
import { MessageAccumulator } from './message-accumulator.js'
import { readResponse } from './response.js'
import type { WireCreateParams, WireEvent, WireMessage, WireMessageParam } from './wire.js'

export const ADAPTER = 'reagent-flow/anthropic'

const ENDED_EARLY = 'the stream ended before message_stop: the response is incomplete (was the request aborted?)'
const CLOSED_EARLY = 'the stream was closed by its reader before message_stop: the response is incomplete'

/** Why a stream that ended this way is incomplete; undefined when it is whole. */
function incompleteBecause(end: StreamEnd, isComplete: boolean): unknown {
  if (end.how === 'error') return end.error
  if (isComplete) return undefined
  return end.how === 'done' ? ENDED_EARLY : CLOSED_EARLY
}

/** The request's system prompt and messages, each as `{ role, content }`; the array is copied so a later push by the agent does not change it. */
function requestMessages(params: WireCreateParams): WireMessageParam[] {
  const messages: WireMessageParam[] = []
  if (params.system !== undefined && params.system !== null) messages.push({ role: 'system', content: params.system })
  if (Array.isArray(params.messages)) messages.push(...params.messages)
  return messages
}

export class CallRecording implements ResponseWatch {
  readonly adapter = ADAPTER
  readonly #session: Session
  /** Leaves the session's open calls (which cut it short when the session closes first). */
  readonly #close: () => void
  readonly #messages: WireMessageParam[]
  readonly #model: string | undefined
  /** When the call started: epoch seconds for the trace, `performance.now()` for its latency. */
  readonly #timestamp = epochSeconds()
  readonly #started = performance.now()
  #done = false
  /** For a stream: what has arrived so far. */
  #partial: () => WireMessage | undefined = () => undefined

  constructor(session: Session, params: WireCreateParams) {
    this.#session = session
    this.#messages = requestMessages(params)
    this.#model = typeof params.model === 'string' ? params.model : undefined
    this.#close = openCall(session, (reason) => this.#finish(this.#partial(), reason))
  }

  get isRecorded(): boolean {
    return this.#done
  }

  /** Keeps the session open until `work` (a read of a response copy, which ends on its own) settles. */
  track(work: Promise<unknown>): void {
    this.#session.track(work)
  }

  /** Takes the parsed response: a message is recorded now, a stream as it is read. */
  receive(data: unknown): void {
    if (!isStream(data)) {
      this.#finish(data as WireMessage)
      return
    }
    const accumulator = new MessageAccumulator()
    this.#partial = () => accumulator.snapshot()
    tapStream(data, ADAPTER, {
      onEvent: (event) => {
        if (this.#done) return
        accumulator.add(event as WireEvent)
        if (accumulator.complete) this.#finish(accumulator.snapshot())
      },
      onEnd: (end) => this.#finish(accumulator.snapshot(), incompleteBecause(end, accumulator.complete)),
    })
  }

  /** The call failed: an API error (after the SDK's retries), a broken connection, an unreadable body. */
  fail(error: unknown): void {
    this.#finish(undefined, error)
  }

  /** Records the call: the response (whole, or as far as it arrived) and the error that ended it, if any. Later calls do nothing. */
  #finish(response: WireMessage | undefined, error?: unknown): void {
    if (this.#done) return
    this.#done = true
    this.#close()
    const latencyMs = performance.now() - this.#started
    recordSafely(ADAPTER, 'a messages.create() call', () => this.#record(response ?? {}, latencyMs, error))
  }

  #record(response: WireMessage, latencyMs: number, error: unknown): void {
    const { toolCalls, responseText, serverToolResults } = readResponse(response)
    const call: LlmCallInput = {
      messages: this.#messages,
      responseText,
      toolCalls,
      model: typeof response.model === 'string' ? response.model : (this.#model ?? null),
      tokenUsage: response.usage ?? null,
      stopReason: response.stop_reason ?? null,
      timestamp: this.#timestamp,
      latencyMs,
    }
    if (error !== undefined) call.error = error
    this.#session.logLlmCall(call)
    // Server tools ran inside this response: their results take no time of their own.
    for (const { callId, outcome } of serverToolResults) this.#session.logResultOf(callId, outcome, 0)
  }
}
