/**
 * A chat model call, kept and answered again (record/replay, `resume()`):
 * the `ChatResult` of `_generate`, or the `ChatGenerationChunk`s of
 * `_streamResponseChunks`, as the recording holds them (the AI messages as
 * their fields, rebuilt as `AIMessage` / `AIMessageChunk`). The request is
 * the model's name, the messages (role, content, tool calls, tool call id),
 * the tools and what the model says it is invoked with; the call's own
 * bookkeeping (callbacks, signal, run names) never takes part.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'
import {
  failingChunks,
  fromRecordedValue,
  keepIterated,
  keepResolved,
  markNotRetryable,
  normalizeRecordedRequest,
  replayChunks,
  toRecordedValue,
  type JsonValue,
  type ModelExchange,
  type RecordedResponse,
} from '../../src/adapter-support/index.js'
type Options = BaseChatModel['ParsedCallOptions'] & Record<string, unknown>

const MESSAGE_FIELDS = ['content', 'additional_kwargs', 'response_metadata', 'tool_calls', 'invalid_tool_calls', 'usage_metadata', 'id', 'name'] as const

/** A message as the request shows it: who, what, and the tool calls it makes or answers. */
function requestMessage(message: BaseMessage): Record<string, unknown> {
  const { tool_calls: toolCalls, tool_call_id: toolCallId } = message as { tool_calls?: unknown; tool_call_id?: unknown }
  return { type: message.getType(), content: message.content, name: message.name, tool_calls: toolCalls, tool_call_id: toolCallId }
}

function toolOf(tool: unknown): unknown {
  try {
    return convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0])
  } catch {
    return tool
  }
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

function requestOf(model: BaseChatModel, messages: readonly BaseMessage[], options: Options): JsonValue {
  const lsParams = safely(() => model.getLsParams(options))
  const tools = options['tools']
  return normalizeRecordedRequest({
    model: lsParams?.ls_model_name ?? null,
    messages: messages.map(requestMessage),
    tools: Array.isArray(tools) ? tools.map(toolOf) : undefined,
    tool_choice: options['tool_choice'],
    stop: options.stop,
    response_format: options['response_format'],
    invocation: safely(() => model.invocationParams(options)),
  })
}

function messageFields(message: BaseMessage, chunk: boolean): JsonValue {
  const fields: Record<string, unknown> = {}
  for (const key of MESSAGE_FIELDS) fields[key] = (message as unknown as Record<string, unknown>)[key]
  if (chunk) {
    const chunks = (message as { tool_call_chunks?: unknown[] }).tool_call_chunks
    // A chunk's tool calls are built from its tool call chunks: keep those, as the model streamed them.
    if (Array.isArray(chunks) && chunks.length > 0) {
      fields.tool_call_chunks = chunks
      delete fields.tool_calls
      delete fields.invalid_tool_calls
    }
  }
  return toRecordedValue(fields)
}

function chatResultValue(result: ChatResult): JsonValue {
  return toRecordedValue({
    generations: result.generations.map((generation) => ({
      text: generation.text,
      generationInfo: generation.generationInfo,
      message: messageFields(generation.message, false),
    })),
    llmOutput: result.llmOutput,
  })
}

function chatResultFrom(recorded: RecordedResponse): ChatResult {
  const value = fromRecordedValue('value' in recorded ? recorded.value : null) as {
    generations?: Array<Record<string, unknown>>
    llmOutput?: Record<string, unknown>
  }
  return {
    generations: (value.generations ?? []).map((generation) => ({
      text: String(generation['text'] ?? ''),
      message: new AIMessage(generation['message'] as ConstructorParameters<typeof AIMessage>[0]),
      ...(generation['generationInfo'] === undefined ? {} : { generationInfo: generation['generationInfo'] as Record<string, unknown> }),
    })),
    ...(value.llmOutput === undefined ? {} : { llmOutput: value.llmOutput }),
  }
}

function chunkValue(chunk: ChatGenerationChunk): JsonValue {
  return toRecordedValue({ text: chunk.text, generationInfo: chunk.generationInfo, message: messageFields(chunk.message, true) })
}

function chunkFrom(recorded: JsonValue): ChatGenerationChunk {
  const value = fromRecordedValue(recorded) as Record<string, unknown>
  return new ChatGenerationChunk({
    text: String(value['text'] ?? ''),
    message: new AIMessageChunk(value['message'] as ConstructorParameters<typeof AIMessageChunk>[0]),
    ...(value['generationInfo'] === undefined ? {} : { generationInfo: value['generationInfo'] as Record<string, unknown> }),
  })
}

/**
 * Runs `attempt` the way the model runs its provider requests: through its
 * AsyncCaller (`model.caller`), whose retry rules (p-retry, its
 * `maxRetries`, no retry of a 4xx, a 429 retried after its `retry-after`,
 * at least a second's backoff) decide whether an injected fault's error is
 * tried again. ChatOpenAI and the other provider models retry exactly there.
 */
function attemptsOf(model: BaseChatModel, attempt: () => void): Promise<void> {
  return model.caller.call(async () => attempt())
}

export function generateExchange(model: BaseChatModel, messages: readonly BaseMessage[], options: Options): ModelExchange<Promise<ChatResult>> {
  return {
    endpoint: `langchain ${model.getName()} _generate`,
    request: () => requestOf(model, messages, options),
    capture: (made, done) => keepResolved(made, done, chatResultValue),
    rebuild: (recorded) => Promise.resolve(chatResultFrom(recorded)),
    // LangChain retries around model calls: an error of ours is marked as one it must not retry.
    fail: (error) => Promise.reject(markNotRetryable(error)),
    retrying: (attempt, answer) => attemptsOf(model, attempt).then(answer),
  }
}

export function streamExchange(model: BaseChatModel, messages: readonly BaseMessage[], options: Options): ModelExchange<AsyncGenerator<ChatGenerationChunk>> {
  return {
    endpoint: `langchain ${model.getName()} _streamResponseChunks`,
    request: () => requestOf(model, messages, options),
    capture: (made, done) => keepIterated(made, done, chunkValue),
    rebuild: (recorded) => replayChunks('chunks' in recorded ? recorded.chunks : [], chunkFrom),
    fail: (error) => failingChunks(markNotRetryable(error)),
    retrying: (attempt, answer) =>
      (async function* () {
        await attemptsOf(model, attempt)
        yield* answer()
      })(),
  }
}
