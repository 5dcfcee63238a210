/**
 * What the OpenAI adapter's files share. The SDK's own types are far
 * richer; the adapter reads wire objects defensively (a field may be missing
 * on an OpenAI-compatible server), so it describes only what it reads.
 */
import { toolOutputValue, type ModelApi, type ModelRequest, type OfferedTools, type RequestToolResult } from '../../src/adapter-support/index.js'

export const ADAPTER = 'reagent-flow/openai'

/** One API method (`chat.completions.create`, `responses.create`): its request body and parsed response, in the lifecycle's terms. */
export type OpenAIApi = ModelApi<Record<string, unknown>, unknown>

/** A request message as the trace keeps it. */
export interface RecordedMessage {
  role: string
  content: unknown
}

/** A request of either API: the model asked for, its messages, the tool outputs it sends back, and the tools it offers. */
export function requestOf(
  body: Record<string, unknown>,
  messages: readonly unknown[] | null,
  toolResults: RequestToolResult[],
  tools: OfferedTools | undefined,
): ModelRequest {
  const model = body['model']
  const request: ModelRequest = { provider: 'openai', model: typeof model === 'string' ? model : null, messages, toolResults }
  return tools === undefined ? request : { ...request, tools }
}

/** A tool's output sent back to the model (a `tool` message, a `function_call_output` item), as the result of its call. */
export function toolResultOf(callId: string, output: unknown): RequestToolResult {
  return { callId, outcome: () => ({ result: toolOutputValue(output) }) }
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
