/**
 * `scriptedChatModel(script)`: a LangChain chat model (a real `BaseChatModel`
 * of @langchain/core 1.x) that answers each call with the next step of a
 * script, by `invoke` or by `stream` (AIMessageChunks with tool_call_chunks),
 * with `bindTools`, so `createReactAgent` and any tool-calling chain can run
 * on it. Each call goes through the model's AsyncCaller, as a provider's
 * does, so LangChain's retry rules (and `maxRetries`) apply to error steps.
 */
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import type { BaseLanguageModelInput, ToolDefinition } from '@langchain/core/language_models/base'
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
  type LangSmithParams,
} from '@langchain/core/language_models/chat_models'
import { AIMessage, AIMessageChunk, type BaseMessage, type UsageMetadata } from '@langchain/core/messages'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'
import type { Runnable } from '@langchain/core/runnables'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'
import { jsonDeltas, textDeltas } from '../deltas.js'
import { withToolNames } from '../request.js'
import { ScriptCursor, type Reply } from '../script-cursor.js'
import type { Script, ScriptProgress, ScriptRequest } from '../types.js'
import { boundTools, chatMessages } from './messages.js'
import { ScriptedApiError } from './scripted-api-error.js'

export interface ScriptedChatModelCallOptions extends BaseChatModelCallOptions {
  /** Set by `bindTools`: the tools as OpenAI tool definitions. */
  tools?: ToolDefinition[]
}

export interface ScriptedChatModelOptions extends BaseChatModelParams {
  /** The model name the answers (and the trace) report. Default `"scripted-chat-model"`. */
  model?: string
}

export class ScriptedChatModel extends BaseChatModel<ScriptedChatModelCallOptions, AIMessageChunk> implements ScriptProgress {
  static override lc_name(): string {
    return 'ScriptedChatModel'
  }

  readonly model: string
  readonly #cursor: ScriptCursor

  constructor(script: Script, options: ScriptedChatModelOptions = {}) {
    const { model = 'scripted-chat-model', ...params } = options
    super(params)
    this.model = model
    this.#cursor = new ScriptCursor(script, `scriptedChatModel "${model}"`)
  }

  get requests(): readonly ScriptRequest[] {
    return this.#cursor.requests
  }

  get remaining(): number {
    return this.#cursor.remaining
  }

  override _llmType(): string {
    return 'scripted'
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<ScriptedChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, ScriptedChatModelCallOptions> {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)), ...kwargs })
  }

  override invocationParams(options?: this['ParsedCallOptions']): Record<string, unknown> {
    return { model: this.model, ...(options?.tools === undefined ? {} : { tools: options.tools }) }
  }

  override getLsParams(options: this['ParsedCallOptions']): LangSmithParams {
    return { ...super.getLsParams(options), ls_provider: 'scripted', ls_model_name: this.model, ls_model_type: 'chat' }
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const reply = await this.#answer(messages, options, false)
    const message = new AIMessage({
      content: reply.text ?? '',
      tool_calls: reply.toolCalls.map((call) => ({ type: 'tool_call', id: call.id, name: call.name, args: call.arguments })),
      response_metadata: this.#responseMetadata(reply),
      ...usageField(reply),
    })
    return { generations: [{ text: reply.text ?? '', message, generationInfo: { finish_reason: finishReason(reply) } }] }
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = await this.#answer(messages, options, true)
    const chunks: Array<{ text: string; message: AIMessageChunk; last?: true }> = [
      ...textDeltas(reply.text ?? '').map((text) => ({ text, message: new AIMessageChunk({ content: text }) })),
      ...reply.toolCalls.flatMap((call, index) => [
        {
          text: '',
          message: new AIMessageChunk({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', index, id: call.id, name: call.name, args: '' }] }),
        },
        ...jsonDeltas(call.json).map((args) => ({
          text: '',
          message: new AIMessageChunk({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', index, args }] }),
        })),
      ]),
      { text: '', message: new AIMessageChunk({ content: '', response_metadata: this.#responseMetadata(reply), ...usageField(reply) }), last: true },
    ]
    for (const { text, message, last } of chunks) {
      options.signal?.throwIfAborted()
      const chunk = new ChatGenerationChunk({ text, message, ...(last ? { generationInfo: { finish_reason: finishReason(reply) } } : {}) })
      yield chunk
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk })
    }
  }

  /** One model call: a step of the script, through the AsyncCaller so that LangChain retries error steps its way. */
  #answer(messages: BaseMessage[], options: this['ParsedCallOptions'], stream: boolean): Promise<Reply> {
    const { signal } = options
    return this.caller.callWithOptions(signal === undefined ? {} : { signal }, async () => {
      signal?.throwIfAborted()
      const request: ScriptRequest = {
        call: this.#cursor.claim(),
        api: 'chat-model',
        model: this.model,
        messages: withToolNames(chatMessages(messages)),
        tools: boundTools(options.tools),
        stream,
        body: { messages, options },
      }
      const resolved = await this.#cursor.resolve(request, stream ? 'stream' : 'invoke', 'call_')
      if (resolved.kind === 'error') throw new ScriptedApiError(resolved.error)
      return resolved.reply
    })
  }

  #responseMetadata(reply: Reply): Record<string, unknown> {
    return { model_name: this.model, finish_reason: finishReason(reply) }
  }
}

/** A scripted LangChain chat model; `new ScriptedChatModel(script, options)` alike. */
export function scriptedChatModel(script: Script, options?: ScriptedChatModelOptions): ScriptedChatModel {
  return new ScriptedChatModel(script, options)
}

/**
 * The token usage, as `usage_metadata`. Typed as an empty object because the
 * field types of @langchain/core 1.x resolve `usage_metadata` to `undefined`
 * for the default message structure (the messages read and merge it all the same).
 */
function usageField({ usage }: Reply): object {
  const usage_metadata: UsageMetadata = {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    // Given (as zeros) so that an answer merged from stream chunks, which always has both, is the same as an invoked one.
    input_token_details: { cache_read: 0 },
    output_token_details: { reasoning: 0 },
  }
  return { usage_metadata }
}

function finishReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'
}
