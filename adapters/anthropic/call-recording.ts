/**
 * The recording of one `messages.create()` call, from the request to the end
 * of its response. Whatever way the call ends (a message, the end of a
 * stream, an API error, a stream cut short, the session closing first), it is
 * recorded exactly once, as one turn.
 */
import { epochSeconds, openCall, recordSafely, type LlmCallInput, type Session } from '../../src/adapter-support.js'
import { readResponse } from './response.js'
import type { WireCreateParams, WireMessage, WireMessageParam } from './wire.js'

export const ADAPTER = 'reagent-flow/anthropic'

/** The request's system prompt and messages, each as `{ role, content }`; the array is copied so a later push by the agent does not change it. */
function requestMessages(params: WireCreateParams): WireMessageParam[] {
  const messages: WireMessageParam[] = []
  if (params.system !== undefined && params.system !== null) messages.push({ role: 'system', content: params.system })
  if (Array.isArray(params.messages)) messages.push(...params.messages)
  return messages
}

export class CallRecording {
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
  partial: () => WireMessage | undefined = () => undefined

  constructor(session: Session, params: WireCreateParams) {
    this.#session = session
    this.#messages = requestMessages(params)
    this.#model = typeof params.model === 'string' ? params.model : undefined
    this.#close = openCall(session, (reason) => this.finish(this.partial(), reason))
  }

  get done(): boolean {
    return this.#done
  }

  /** Keeps the session open until `read` (a read of a response copy, which ends on its own) settles. */
  track(read: Promise<void>): void {
    this.#session.track(read)
  }

  /** Records the call: the response (whole, or as far as it arrived) and the error that ended it, if any. Later calls do nothing. */
  finish(response: WireMessage | undefined, error?: unknown): void {
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
