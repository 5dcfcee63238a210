/**
 * The vocabulary every adapter speaks to the call lifecycle (`ModelCall`):
 * what a request and a response say in the recorder's terms, how a stream
 * folds into a response, and the one object per kind of model call (an SDK
 * method, a middleware hook, a callback run) that translates between the
 * SDK and those terms. An adapter is these translations plus the place it
 * hooks into its SDK; the lifecycle does the rest, the same for all.
 */
import type { DescribedFault } from '../faults/model-fault.js'
import type { ToolCallInput, ToolOutcome } from '../session/recorder.js'
import type { Session } from '../session/session.js'
import type { RecordedResponse } from '../storage/index.js'
import type { JsonValue } from '../trace/types.js'
import type { OfferedTools } from './offered-tools.js'

/** A result of an earlier tool call that a request carries back to the model. */
export interface RequestToolResult {
  readonly callId: string
  /** Built only if it is recorded: agents resend the whole history, and only new results are. */
  readonly outcome: () => ToolOutcome
}

/** A tool the provider ran itself inside one response (Anthropic's server tools, the AI SDK's provider-executed tools). */
export interface ProviderToolResult {
  readonly callId: string
  readonly name: string
  readonly outcome: () => ToolOutcome
}

/** What a model call asks, read when it starts. */
export interface ModelRequest {
  /** Who serves the call, recorded as the LLM call's `provider`: "openai", "anthropic", an AI SDK model's `provider`. */
  readonly provider: string | null
  /** The model asked for; the model the response names wins. */
  readonly model: string | null
  /** The messages sent, each `{ role, content }` (the recorder keeps those keys), copied now: agents push to their array while a response streams. */
  readonly messages: readonly unknown[] | null
  /** Tool results the request hands back; the session records those of its own calls that have none yet. */
  readonly toolResults?: readonly RequestToolResult[]
  /** The tools the request offers the model (its `tools`, an agent's handoffs): stored once per distinct set on the trace, the call naming it. */
  readonly tools?: OfferedTools
}

/** What a response says: a whole one, or a stream as far as it was read. */
export interface ModelResponse {
  readonly toolCalls: readonly ToolCallInput[]
  readonly responseText: string | null
  readonly model: string | null
  /** As the provider sent it: the recorder reads every provider's names. */
  readonly tokenUsage: Readonly<Record<string, unknown>> | null
  readonly stopReason: string | null
  /** The call failed, or the response reports a failure of its own (a failed response, an error event). */
  readonly error?: unknown
  readonly providerToolResults?: readonly ProviderToolResult[]
}

/** Folds the events of one streamed response into the response they amount to. */
export interface StreamFold<Event = unknown> {
  /** The event that ends a whole response, as error messages name it: `message_stop`, `[DONE]`. */
  readonly lastEvent: string
  /**
   * True once `lastEvent` has arrived: the call is recorded then, without
   * waiting for the stream to end (the SDK may run tools, whose results need
   * their call in the trace, before it reads on). False before. Undefined for
   * a stream whose last event the SDK does not hand out (OpenAI chat's
   * `[DONE]`): it is whole when read to its end, unless it was aborted.
   */
  readonly isComplete: boolean | undefined
  add(event: Event): void
  /** The response so far: whole once the stream has ended, partial before. */
  result(): ModelResponse
}

/**
 * How one kind of model call translates into the lifecycle's terms; one
 * constant per kind (`chat.completions.create`, a middleware's model call).
 * Translations run inside the lifecycle's guard: one that throws is warned
 * about once, and never reaches the user's call.
 */
export interface ModelApi<Request, Response, Event = unknown> {
  /** The adapter, as warnings name it: `reagent-flow/openai`. */
  readonly adapter: string
  /** One call, as warnings name it: `a chat.completions.create call`. */
  readonly operation: string
  request(raw: Request): ModelRequest
  response(raw: Response): ModelResponse
  /** A fold for a streamed response; absent where the adapter never sees the events. */
  stream?(): StreamFold<Event>
  /**
   * Work queued outside the call's async flow that may still end the call
   * (LangChain's background callbacks): awaited before a closing session
   * cuts the call short.
   */
  settle?(): Promise<unknown>
  /** Runs once the call is in the trace (the AI SDK logs tool results that were waiting for it). */
  afterRecord?(session: Session): void
}

/**
 * How a call made at a model's own layer (the AI SDK middleware, a LangChain
 * chat model, an Agents SDK `Model`) is kept and answered again: record and
 * replay, `resume()`. `ModelCall.send(make, exchange)` asks the session how
 * the call is answered, then `rebuild`s a recorded answer, `fail`s the call
 * the way the SDK fails one, or runs `make` and `capture`s what it returns.
 * (The SDKs built by Stainless are answered below, at their HTTP layer: see
 * recorded-fetch.ts.)
 */
export interface ModelExchange<Made> {
  /** Who and what is called, as recordings name it: `ai-sdk openai.chat doStream`. */
  readonly endpoint: string
  /** The request in normal form (replay/normalize.ts): provider, model, and what changes the answer. Called at most once. */
  request(): JsonValue
  /** Watches what `make` returned, unchanged for its caller; `done` gets (a function building) its recorded form once it is whole, or undefined when it failed. */
  capture(made: Made, done: (response: (() => RecordedResponse) | undefined) => void): Made
  /** What `make` would have returned, from its recorded form. */
  rebuild(response: RecordedResponse): Made
  /** What a call returns that must fail with `error` without reaching the model (a replay with no match): a rejected promise, a failing stream. */
  fail(error: Error): Made
  /**
   * The error the SDK raises when its provider fails a call the way an
   * injected fault (the `faults` option) describes, so the SDK's own retry
   * rules above this layer know it (the AI SDK's retryable `APICallError`).
   * The call then returns `fail(error)`. Default: a `ModelFaultError`.
   */
  faultError?(fault: DescribedFault): Error
  /**
   * Where the SDK retries below this layer (LangChain's AsyncCaller, inside
   * the model): runs `attempt` through that retry loop, as the model runs a
   * provider request (`attempt` throws an injected fault's error, or
   * returns), then returns `answer()`, the call answered as any other.
   */
  retrying?(attempt: () => void, answer: () => Made): Made
  /**
   * The Stainless client (openai, @anthropic-ai/sdk) the model makes its
   * requests with, and its provider, when it has one (the Agents SDK's
   * OpenAI models): an injected fault is then answered by that client's
   * `fetch`, one request at a time, so the client's retries and error
   * classes run, as for an instrumented client.
   */
  client?(): { client: object; provider: string } | undefined
}
