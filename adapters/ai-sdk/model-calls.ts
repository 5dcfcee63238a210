/**
 * A call of the wrapped model (`doGenerate` or `doStream`) in the
 * lifecycle's terms: the prompt's messages and tool results, the model's
 * provider and id, and its output folded part by part.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { ModelApi, ModelRequest } from '../../src/adapter-support/index.js'
import { releaseHeldResults } from './held-results.js'
import { PartFold } from './part-fold.js'
import { promptMessages, promptToolResults } from './prompt.js'
import { ADAPTER } from './record.js'
import { offeredTools } from './tools.js'

/** What the middleware is handed for each call: the call's options and the model they go to. */
export interface MiddlewareCall {
  params: LanguageModelV3CallOptions
  model: LanguageModelV3
}

export const modelCalls: ModelApi<MiddlewareCall, LanguageModelV3GenerateResult, LanguageModelV3StreamPart> = {
  adapter: ADAPTER,
  operation: 'a model call',

  request({ params, model }) {
    const request: ModelRequest = {
      provider: model.provider,
      model: model.modelId,
      messages: promptMessages(params.prompt),
      toolResults: promptToolResults(params.prompt),
    }
    const tools = offeredTools(params)
    return tools === undefined ? request : { ...request, tools }
  },

  response(result) {
    const fold = new PartFold()
    for (const part of result.content) fold.add(part)
    fold.finish({ usage: result.usage, finishReason: result.finishReason, modelId: result.response?.modelId })
    return fold.result()
  },

  stream: () => new PartFold(),
  // Tools that finished before their call was in the trace (streamText in earlier SDK versions).
  afterRecord: releaseHeldResults,
}
