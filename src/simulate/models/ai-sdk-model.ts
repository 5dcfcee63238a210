/**
 * A simulation's request as one `doGenerate` of an AI SDK LanguageModel (V3):
 * the V3 prompt and function tools, recorded through the AI SDK adapter
 * (`recordedGenerate`) whether or not the model is wrapped with
 * `reagentMiddleware()`.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider'
import type { LanguageModelLike, ModelAnswer, ModelRequest } from '../model-types.js'
import { toolCallOf } from './tool-arguments.js'

/** The call options: the system prompt first, each message as one text part. */
function aiSdkCallOptions(request: ModelRequest): LanguageModelV3CallOptions {
  const tools = request.tools ?? []
  return {
    prompt: [
      { role: 'system', content: request.system },
      ...request.messages.map(({ role, content }) => ({ role, content: [{ type: 'text' as const, text: content }] })),
    ],
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map(({ name, description, parameters }) => ({ type: 'function' as const, name, description, inputSchema: parameters as never })),
          toolChoice: { type: request.toolChoice ?? 'auto' },
        }),
  }
}

function answerOf(content: readonly LanguageModelV3Content[]): ModelAnswer {
  const texts: string[] = []
  const toolCalls: ModelAnswer['toolCalls'] = []
  for (const part of content) {
    if (part.type === 'text') texts.push(part.text)
    else if (part.type === 'tool-call' && part.providerExecuted !== true) toolCalls.push(toolCallOf(part.toolName, part.input))
  }
  return { text: texts.length === 0 ? null : texts.join(''), toolCalls }
}

export async function askLanguageModel(model: LanguageModelLike, request: ModelRequest): Promise<ModelAnswer> {
  const { recordedGenerate } = await import('../../../adapters/ai-sdk/recorded-generate.js')
  const result = await recordedGenerate(model as unknown as LanguageModelV3, aiSdkCallOptions(request))
  return answerOf(result.content)
}
