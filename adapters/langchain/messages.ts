/**
 * LangChain objects -> what the recorder takes: messages as `{ role, content }`,
 * the model name, and an LLM result as response text, tool calls, token usage
 * and stop reason. Duck-typed on the fields LangChain documents, so messages
 * from another copy of `@langchain/core` read the same.
 */
import type { Serialized } from '@langchain/core/load/serializable'
import type { LLMResult } from '@langchain/core/outputs'
import type { ModelResponse, ToolCallInput } from '../../src/adapter-support/index.js'

interface MessageLike {
  type?: unknown
  role?: unknown
  content?: unknown
  _getType?: () => unknown
}

interface ToolCallLike {
  name?: unknown
  args?: unknown
  id?: unknown
}

interface AiMessageLike {
  content?: unknown
  tool_calls?: readonly ToolCallLike[]
  /** Calls whose arguments did not parse (`args` is the raw string). */
  invalid_tool_calls?: readonly ToolCallLike[]
  usage_metadata?: Record<string, unknown>
  response_metadata?: Record<string, unknown>
}

/** LangChain message types -> the roles providers (and reagent-flow 0.5 traces) use. */
const ROLE_OF_TYPE: Readonly<Record<string, string>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  tool: 'tool',
  function: 'function',
  developer: 'developer',
}

function roleOf(message: MessageLike): string {
  const type = typeof message.type === 'string' ? message.type : typeof message._getType === 'function' ? message._getType() : undefined
  // A ChatMessage ("generic") carries its own role.
  if (type === 'generic' && typeof message.role === 'string') return message.role
  return typeof type === 'string' ? (ROLE_OF_TYPE[type] ?? type) : 'unknown'
}

/**
 * The messages of one chat model call, each as `{ role, content }` (content
 * blocks kept as they are). A prompt string of a text-completion model is
 * left to the recorder, which keeps a string as a user message.
 */
export function toRecordedMessages(messages: readonly unknown[]): unknown[] {
  return messages.map((message) => {
    if (message === null || typeof message !== 'object') return message
    const m = message as MessageLike
    return { role: roleOf(m), content: m.content ?? null }
  })
}

function firstString(...candidates: unknown[]): string | null {
  for (const candidate of candidates) if (typeof candidate === 'string' && candidate !== '') return candidate
  return null
}

/**
 * The model a call asked for: the invocation params (what is sent to the
 * provider), then LangSmith's `ls_model_name`, then the constructor kwargs.
 * Null for models that have none (LangChain's fake models). The recorded
 * model is the one the response names, when it names one; this is the fallback.
 */
export function modelNameOf(
  serialized: Serialized | undefined,
  extraParams: Record<string, unknown> | undefined,
  metadata: Record<string, unknown> | undefined,
): string | null {
  const params = extraParams?.['invocation_params'] as Record<string, unknown> | undefined
  const kwargs = (serialized as { kwargs?: Record<string, unknown> } | undefined)?.kwargs
  return firstString(
    params?.['model'],
    params?.['model_name'],
    params?.['modelName'],
    metadata?.['ls_model_name'],
    kwargs?.['model'],
    kwargs?.['model_name'],
    kwargs?.['modelName'],
  )
}

/**
 * Who serves the model: LangChain's own name for its provider (`ls_provider`,
 * what LangSmith shows: "openai" for ChatOpenAI), else the model type
 * (`_llmType()`, the namespace its serialized id ends in: "fake" for FakeLLM).
 */
export function providerOf(serialized: Serialized | undefined, metadata: Record<string, unknown> | undefined): string | null {
  const id = (serialized as { id?: unknown } | undefined)?.id
  return firstString(metadata?.['ls_provider'], Array.isArray(id) ? id.at(-2) : undefined)
}

/** The text of a message: a string content, or its text blocks joined. Empty is null (a tool-call-only answer). */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content === '' ? null : content
  if (!Array.isArray(content)) return null
  const text = content.map((block: { type?: unknown; text?: unknown }) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('')
  return text === '' ? null : text
}

function toolCallsOf(message: AiMessageLike): ToolCallInput[] {
  const calls = [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])]
  return calls.map((call) => ({
    name: typeof call.name === 'string' && call.name !== '' ? call.name : 'unknown',
    arguments: call.args,
    ...(typeof call.id === 'string' && call.id !== '' ? { callId: call.id } : {}),
  }))
}

/**
 * Token usage without the entries LangChain fills with nothing: its
 * `usage_metadata` names every detail it knows (`input_token_details: { audio:
 * undefined, cache_read: undefined }` when the provider sent none), and a
 * recording keeps no undefined, so a replayed run would read `{}` where the
 * live one read `undefined`s. Dropping undefined and null entries (and detail
 * objects left empty) gives one form, live and replayed, and no warning about
 * LangChain's own undefineds.
 */
function withoutEmptyEntries(usage: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(usage)) {
    if (value === undefined || value === null) continue
    if (typeof value !== 'object' || Array.isArray(value)) {
      kept[key] = value
      continue
    }
    const details = withoutEmptyEntries(value as Record<string, unknown>)
    if (Object.keys(details).length > 0) kept[key] = details
  }
  return kept
}

function tokenUsageOf(message: AiMessageLike | undefined, output: LLMResult): Record<string, unknown> | null {
  const usage = message?.usage_metadata ?? (output.llmOutput?.['tokenUsage'] as Record<string, unknown> | undefined)
  return usage === undefined || usage === null || typeof usage !== 'object' ? null : withoutEmptyEntries(usage)
}

/**
 * What the model answered, from the first generation of an LLM result
 * (streamed results arrive aggregated). The model is the one the provider
 * says answered (a dated snapshot), when it says.
 */
export function responseOf(output: LLMResult): ModelResponse {
  const generation = output.generations[0]?.[0] as { text?: unknown; message?: AiMessageLike; generationInfo?: Record<string, unknown> } | undefined
  const message = generation?.message
  const metadata = message?.response_metadata ?? {}
  return {
    responseText: message === undefined ? textOf(generation?.text) : textOf(message.content),
    toolCalls: message === undefined ? [] : toolCallsOf(message),
    tokenUsage: tokenUsageOf(message, output),
    stopReason: firstString(metadata['finish_reason'], metadata['stop_reason'], generation?.generationInfo?.['finish_reason']),
    model: firstString(metadata['model_name'], metadata['model']),
  }
}
