/**
 * An Agents SDK `ModelResponse` (or the stream of `StreamEvent`s that
 * amounts to one) in the recorder's terms: `function_call` output items are
 * the tool calls, `output_text` parts the response text, hosted tools (run by
 * the provider inside the response: web search, hosted MCP) tool calls with
 * their result. With the SDK withholding the call's data, only the shape is
 * kept: tool names and ids, usage, model; no text, no arguments.
 */
import { outputTexts, type ModelResponse, type ProviderToolResult, type StreamFold, type ToolCallInput } from '../../src/adapter-support/index.js'
import { field, stringOrNull } from './wire.js'

const HOSTED_CALL = 'hosted_tool_call'
const HOSTED_PROTOCOL: ReadonlySet<unknown> = new Set(['mcp_list_tools', 'mcp_approval_request'])

/** A whole response; `withheld` when the SDK keeps the call's data out of its traces. */
export function responseOf(response: unknown, withheld: boolean): ModelResponse {
  const output = field(response, 'output')
  const items: unknown[] = Array.isArray(output) ? output : []
  const toolCalls: ToolCallInput[] = []
  const hosted: ProviderToolResult[] = []
  const texts: string[] = []
  for (const item of items) {
    const type = field(item, 'type')
    if (type === 'message') texts.push(...outputTexts(field(item, 'content')))
    else if (type === HOSTED_CALL) {
      // A hosted MCP server's tool listing and approval requests are protocol, not tools the model chose: hosted-mcp.ts notes the listing.
      if (!HOSTED_PROTOCOL.has(field(item, 'name'))) hosted.push(hostedCall(item, toolCalls, withheld))
    } else if (typeof type === 'string' && type.endsWith('_call')) toolCalls.push(toolCallOf(item, type, withheld))
  }
  const providerData = field(response, 'providerData')
  return {
    toolCalls,
    responseText: withheld || texts.length === 0 ? null : texts.join(''),
    model: stringOrNull(field(providerData, 'model')),
    tokenUsage: usageOf(field(response, 'usage')),
    stopReason: stopReasonOf(providerData),
    ...(hosted.length === 0 ? {} : { providerToolResults: hosted }),
  }
}

/** A function call (`name`, JSON `arguments`), or another client-run call (computer, shell, apply_patch) named by its kind. */
function toolCallOf(item: unknown, type: string, withheld: boolean): ToolCallInput {
  const callId = field(item, 'callId')
  const args = type === 'function_call' ? field(item, 'arguments') : (field(item, 'action') ?? field(item, 'operation'))
  return {
    name: stringOrNull(field(item, 'name')) ?? type.replace(/_call$/, ''),
    ...(withheld ? {} : { arguments: args }),
    ...(typeof callId === 'string' ? { callId } : {}),
  }
}

/**
 * A tool the provider ran: web search, code interpreter, a hosted MCP server's
 * tool (`mcp_call`, named by the MCP tool it called; its server is noted on the
 * turn by hosted-mcp.ts).
 */
function hostedCall(item: unknown, toolCalls: ToolCallInput[], withheld: boolean): ProviderToolResult {
  const kind = stringOrNull(field(item, 'name')) ?? 'hosted_tool'
  const providerData = field(item, 'providerData')
  const isMcp = kind === 'mcp_call'
  const name = isMcp ? (stringOrNull(field(providerData, 'name')) ?? kind) : kind
  const callId = stringOrNull(field(item, 'id')) ?? `${name}_${toolCalls.length}`
  const args = isMcp ? field(providerData, 'arguments') : field(item, 'arguments')
  toolCalls.push({ name, callId, ...(withheld ? {} : { arguments: args }) })
  const status = field(item, 'status')
  return {
    callId,
    name,
    outcome: () => {
      const error = field(providerData, 'error')
      if (status === 'failed' || (error !== null && error !== undefined)) return { error: typeof error === 'string' ? error : `${name} failed` }
      return { result: withheld ? null : (field(item, 'output') ?? null) }
    },
  }
}

/** The SDK's `Usage` (camelCase counts): zeros everywhere means the model reported none. */
export function usageOf(usage: unknown): Readonly<Record<string, unknown>> | null {
  const input = field(usage, 'inputTokens')
  const output = field(usage, 'outputTokens')
  const total = field(usage, 'totalTokens')
  if (typeof input !== 'number' && typeof output !== 'number') return null
  if (input === 0 && output === 0 && (total === 0 || total === undefined)) return null
  return { input_tokens: input, output_tokens: output, ...(typeof total === 'number' ? { total_tokens: total } : {}) }
}

/** Chat's finish reason, or the Responses API's incomplete reason or status, from the provider's own response. */
function stopReasonOf(providerData: unknown): string | null {
  const choices = field(providerData, 'choices')
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined
  return (
    stringOrNull(field(first, 'finish_reason')) ??
    stringOrNull(field(field(providerData, 'incomplete_details'), 'reason')) ??
    stringOrNull(field(providerData, 'status'))
  )
}

/**
 * Folds a `getStreamedResponse` stream: `response_done` carries the whole
 * response and is its last event; before it, text deltas and the provider's
 * raw events (`model`) say what arrived, for a stream left early.
 */
export class StreamEventFold implements StreamFold {
  readonly lastEvent = 'response_done'
  readonly #withheld: boolean
  #final: ModelResponse | undefined
  #text = ''
  #model: string | null = null
  #stopReason: string | null = null

  constructor(withheld: boolean) {
    this.#withheld = withheld
  }

  get isComplete(): boolean {
    return this.#final !== undefined
  }

  add(event: unknown): void {
    switch (field(event, 'type')) {
      case 'output_text_delta': {
        const delta = field(event, 'delta')
        if (typeof delta === 'string') this.#text += delta
        break
      }
      case 'response_started':
        this.#model = stringOrNull(field(field(field(event, 'providerData'), 'response'), 'model')) ?? this.#model
        break
      case 'model':
        this.#addRaw(field(event, 'event'))
        break
      case 'response_done':
        this.#final = responseOf(field(event, 'response'), this.#withheld)
        break
    }
  }

  /** A provider event: a chat chunk names the model and the finish reason, a Responses event its response's model. */
  #addRaw(raw: unknown): void {
    this.#model = stringOrNull(field(raw, 'model')) ?? stringOrNull(field(field(raw, 'response'), 'model')) ?? this.#model
    this.#stopReason = stopReasonOf(raw) ?? stopReasonOf(field(raw, 'response')) ?? this.#stopReason
  }

  result(): ModelResponse {
    const final = this.#final
    if (final !== undefined) return { ...final, model: final.model ?? this.#model, stopReason: final.stopReason ?? this.#stopReason }
    return {
      toolCalls: [],
      responseText: this.#withheld || this.#text === '' ? null : this.#text,
      model: this.#model,
      tokenUsage: null,
      stopReason: this.#stopReason,
    }
  }
}
