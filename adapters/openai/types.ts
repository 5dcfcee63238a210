/**
 * Shapes shared by the OpenAI adapter's files. The SDK's own types are far
 * richer; the adapter reads wire objects defensively (a field may be missing
 * on an OpenAI-compatible server), so it describes only what it reads.
 */
import type { ToolCallInput } from '../../src/adapter-support.js'

/** A request message as the trace keeps it. */
export interface RecordedMessage {
  role: string
  content: unknown
}

/** A tool's output that a request sends back to the model. */
export interface ToolOutput {
  callId: string
  output: unknown
}

/** What one response says, whatever the API: the LLM call of a turn. */
export interface TurnData {
  toolCalls: ToolCallInput[]
  responseText: string | null
  model: string | null
  /** As the provider sent it: the recorder reads both APIs' names (`prompt_tokens`, `input_tokens`, their details). */
  tokenUsage: Readonly<Record<string, unknown>> | null
  stopReason: string | null
  /** The response reports a failure of its own (a failed or errored stream). */
  error?: unknown
}

/** Folds the events of a streamed response into the turn it amounts to. */
export interface StreamAccumulator {
  add(event: unknown): void
  /** The turn so far: complete once the stream has ended, partial before. */
  result(): TurnData
}

/** How one API method's requests and responses translate into the recorder's terms. */
export interface ApiTranslator {
  /** The SDK method, as warnings name it: `chat.completions.create`. */
  readonly method: string
  /**
   * The request's messages as `{ role, content }` objects (other keys are
   * dropped by the recorder), captured when the call starts: agents push to
   * their message array while a response streams.
   */
  messages(body: Record<string, unknown>): readonly unknown[] | null
  /** Tool outputs the request carries back (results of calls of earlier turns). */
  toolOutputs(body: Record<string, unknown>): ToolOutput[]
  /** A complete response body. */
  fromResponse(body: unknown): TurnData
  accumulator(): StreamAccumulator
}

/** Reads a property of a wire object that may be anything. */
export function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** A usage object as the provider sent it; null when the response has none. */
export function usageOf(value: unknown): Readonly<Record<string, unknown>> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}
