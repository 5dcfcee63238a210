/**
 * One SDK call inside a session, from request to recorded turn. The session
 * is the one active when the call was made, so concurrent sessions sharing a
 * client never mix. The turn is recorded once: when the response is parsed,
 * when a streamed response ends, when the call fails, or when the session
 * closes first (with what had arrived, and the error saying so).
 */
import {
  epochSeconds,
  isStream,
  openCall,
  recordSafely,
  tapStream,
  toolOutputValue,
  type LlmCallInput,
  type ResponseWatch,
  type Session,
} from '../../src/adapter-support.js'
import type { ApiTranslator, TurnData } from './types.js'

export const ADAPTER = 'reagent-flow/openai'

const NO_RESPONSE: TurnData = { toolCalls: [], responseText: null, model: null, tokenUsage: null, stopReason: null }

export class LlmCall implements ResponseWatch {
  readonly adapter = ADAPTER
  readonly #session: Session
  readonly #api: ApiTranslator
  readonly #messages: readonly unknown[] | null
  readonly #requestModel: string | null
  /** When the call started: epoch seconds for the trace, `performance.now()` for its latency. */
  readonly #timestamp = epochSeconds()
  readonly #startedAt = performance.now()
  /** Leaves the session's open calls (which cut it short when the session closes first). */
  readonly #close: () => void
  /** What has arrived so far: nothing until a stream starts, then its events. */
  #partial: () => TurnData = () => NO_RESPONSE
  #isRecorded = false

  /**
   * Starts a call: keeps its messages, and records the tool results its
   * request carries back (the session skips calls it did not make and calls
   * with a result already: agents resend the whole history every turn).
   */
  constructor(session: Session, api: ApiTranslator, body: Record<string, unknown>) {
    this.#session = session
    this.#api = api
    this.#messages = api.messages(body)
    this.#requestModel = typeof body['model'] === 'string' ? body['model'] : null
    for (const { callId, output } of api.toolOutputs(body)) session.logResultOf(callId, () => ({ result: toolOutputValue(output) }))
    this.#close = openCall(session, (reason) => this.#record(() => ({ ...this.#partial(), error: reason })))
  }

  get method(): string {
    return this.#api.method
  }

  get isRecorded(): boolean {
    return this.#isRecorded
  }

  /** Takes the parsed response: a stream is watched until it ends, anything else recorded now. */
  receive(data: unknown): void {
    if (!isStream(data)) {
      this.#record(() => this.#api.fromResponse(data))
      return
    }
    const events = this.#api.accumulator()
    this.#partial = () => events.result()
    tapStream(data, ADAPTER, {
      onEvent: (event) => {
        if (!this.#isRecorded) events.add(event)
      },
      onEnd: (end) => this.#record(() => (end.how === 'error' ? { ...events.result(), error: end.error } : events.result())),
    })
  }

  /** The call failed (an API error, a broken connection, an unreadable body). */
  fail(error: unknown): void {
    this.#record(() => ({ ...NO_RESPONSE, error }))
  }

  /** Work the session must wait for before it closes (reading a copy of a raw response). */
  track(work: Promise<unknown>): void {
    this.#session.track(work)
  }

  #record(read: () => TurnData): void {
    if (this.#isRecorded) return
    this.#isRecorded = true
    this.#close()
    const endedAt = performance.now()
    recordSafely(ADAPTER, `a ${this.method} call`, () => {
      const turn = read()
      const call: LlmCallInput = {
        messages: this.#messages,
        model: turn.model ?? this.#requestModel,
        toolCalls: turn.toolCalls,
        responseText: turn.responseText,
        tokenUsage: turn.tokenUsage,
        stopReason: turn.stopReason,
        latencyMs: endedAt - this.#startedAt,
        timestamp: this.#timestamp,
      }
      if (turn.error !== undefined) call.error = turn.error
      this.#session.logLlmCall(call)
    })
  }
}
