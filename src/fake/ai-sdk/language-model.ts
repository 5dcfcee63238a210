/**
 * `scriptedLanguageModel(script)`: an AI SDK model (LanguageModelV3, `ai` 6)
 * that answers each `doGenerate` / `doStream` call with the next step of a
 * script. A plain object: nothing of `ai` is loaded until an error step needs
 * the SDK's own `APICallError`.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider'
import { jsonDeltas, textDeltas } from '../deltas.js'
import { openaiErrorBody } from '../fetch/openai-error.js'
import { withToolNames } from '../request.js'
import { RETRY_HEADERS } from '../retry-headers.js'
import { ScriptCursor, type Reply } from '../script-cursor.js'
import type { ErrorStep, Script, ScriptProgress, ScriptRequest } from '../types.js'
import { functionTools, promptMessages } from './prompt.js'

export interface ScriptedLanguageModelOptions {
  /** The model id the SDK (and the trace) reports. Default `"scripted-model"`. */
  modelId?: string
  /** The provider name. Default `"scripted"`. */
  provider?: string
}

/** A LanguageModelV3 that plays a script; also tells how far it got. */
export interface ScriptedLanguageModel extends LanguageModelV3, ScriptProgress {}

export function scriptedLanguageModel(script: Script, options: ScriptedLanguageModelOptions = {}): ScriptedLanguageModel {
  const modelId = options.modelId ?? 'scripted-model'
  const cursor = new ScriptCursor(script, `scriptedLanguageModel "${modelId}"`)

  async function answer(callOptions: LanguageModelV3CallOptions, stream: boolean): Promise<{ call: number; reply: Reply }> {
    callOptions.abortSignal?.throwIfAborted()
    const call = cursor.claim()
    const request: ScriptRequest = {
      call,
      api: 'language-model',
      model: modelId,
      messages: withToolNames(promptMessages(callOptions.prompt)),
      tools: functionTools(callOptions.tools),
      stream,
      body: callOptions,
    }
    const resolved = await cursor.resolve(request, stream ? 'doStream' : 'doGenerate', 'call_')
    if (resolved.kind === 'error') throw await apiCallError(resolved.error, request)
    return { call, reply: resolved.reply }
  }

  const model: LanguageModelV3 & { readonly requests: ScriptProgress['requests']; readonly remaining: number } = {
    specificationVersion: 'v3',
    provider: options.provider ?? 'scripted',
    modelId,
    supportedUrls: {},
    async doGenerate(callOptions): Promise<LanguageModelV3GenerateResult> {
      const { call, reply } = await answer(callOptions, false)
      return {
        content: contentOf(reply),
        finishReason: finishReasonOf(reply),
        usage: usageOf(reply),
        warnings: [],
        response: { id: responseId(call), modelId, timestamp: new Date() },
      }
    },
    async doStream(callOptions): Promise<LanguageModelV3StreamResult> {
      const { call, reply } = await answer(callOptions, true)
      return { stream: partStream(streamParts(reply, call, modelId)) }
    },
    get requests() {
      return cursor.requests
    },
    get remaining() {
      return cursor.remaining
    },
  }
  return model
}

function contentOf(reply: Reply): LanguageModelV3Content[] {
  return [
    ...(reply.text === undefined ? [] : [{ type: 'text' as const, text: reply.text }]),
    ...reply.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.json })),
  ]
}

/** The parts a provider streams: metadata, text deltas, each tool call's input deltas then the call, finish. */
function streamParts(reply: Reply, call: number, modelId: string): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: responseId(call), modelId, timestamp: new Date() },
  ]
  if (reply.text !== undefined) {
    const id = `text-${call}`
    parts.push({ type: 'text-start', id }, ...textDeltas(reply.text).map((delta) => ({ type: 'text-delta' as const, id, delta })), { type: 'text-end', id })
  }
  for (const toolCall of reply.toolCalls) {
    const id = toolCall.id
    parts.push(
      { type: 'tool-input-start', id, toolName: toolCall.name },
      ...jsonDeltas(toolCall.json).map((delta) => ({ type: 'tool-input-delta' as const, id, delta })),
      { type: 'tool-input-end', id },
      { type: 'tool-call', toolCallId: id, toolName: toolCall.name, input: toolCall.json },
    )
  }
  parts.push({ type: 'finish', finishReason: finishReasonOf(reply), usage: usageOf(reply) })
  return parts
}

/** A stream that hands out one part per read, as a provider's does. */
function partStream(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0
  return new ReadableStream({
    pull(controller) {
      const part = parts[next++]
      if (part === undefined) controller.close()
      else controller.enqueue(part)
    },
  })
}

function finishReasonOf(reply: Reply): LanguageModelV3FinishReason {
  return reply.toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' }
}

function usageOf({ usage }: Reply): LanguageModelV3Usage {
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: 0, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: 0 },
  }
}

function responseId(call: number): string {
  return `scripted-${call}`
}

/** The error an AI SDK provider throws for an HTTP error: retryable for 408, 409, 429 and 5xx, by the SDK's own rule. */
async function apiCallError(error: ErrorStep['error'], request: ScriptRequest): Promise<Error> {
  const { APICallError } = await import('ai')
  return new APICallError({
    message: error.message,
    url: `scripted://${request.model ?? 'model'}`,
    requestBodyValues: { model: request.model, messages: request.messages, tools: request.tools },
    statusCode: error.status,
    responseHeaders: { ...RETRY_HEADERS },
    responseBody: JSON.stringify(openaiErrorBody(error)),
  })
}
