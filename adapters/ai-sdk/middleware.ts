/**
 * `reagentMiddleware()`: a LanguageModelV3 middleware for `wrapLanguageModel`
 * that records every model call (`doGenerate` and `doStream`) into the
 * active session, and the tool results each prompt hands back to the model.
 *
 * A middleware sees model calls only, never tool execution: wrap the tools
 * with `instrumentTools()` for exact results and durations.
 */
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamResult } from '@ai-sdk/provider'
import type { LanguageModelMiddleware } from 'ai'
import { currentSession } from '../../src/adapter-support.js'
import { ModelCall, recordPromptResults } from './model-call.js'
import { observeStream } from './observe-stream.js'
import { recordSafelyAiSdk } from './record.js'

/**
 * Records every call of the wrapped model inside a session: the prompt
 * (as `{ role, content }` messages), text, tool calls with their parsed input,
 * usage (`input_tokens`, `output_tokens` and details), finish reason, model id
 * and latency. Streams reach the caller unchanged and are recorded when they
 * finish (or fail, or are cancelled). Outside a session it records nothing.
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: reagentMiddleware() })
 */
export function reagentMiddleware(): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',

    async wrapGenerate({ doGenerate, params, model }) {
      const s = currentSession()
      if (s === undefined) return doGenerate()
      recordPromptResults(s, params.prompt)
      const call = new ModelCall(s, params.prompt, model.modelId)
      let result: LanguageModelV3GenerateResult
      try {
        result = await doGenerate()
      } catch (error) {
        call.fail(error)
        call.log()
        throw error
      }
      recordSafelyAiSdk('a model response', () => {
        for (const part of result.content) call.observe(part)
        call.finish({ usage: result.usage, finishReason: result.finishReason, modelId: result.response?.modelId })
      })
      call.log()
      return result
    },

    async wrapStream({ doStream, params, model }) {
      const s = currentSession()
      if (s === undefined) return doStream()
      recordPromptResults(s, params.prompt)
      const call = new ModelCall(s, params.prompt, model.modelId)
      let result: LanguageModelV3StreamResult
      try {
        result = await doStream()
      } catch (error) {
        call.fail(error)
        call.log()
        throw error
      }
      let observed: LanguageModelV3StreamResult['stream'] | undefined
      recordSafelyAiSdk('a model stream', () => {
        observed = observeStream(result.stream, call, s)
      })
      return observed === undefined ? result : { ...result, stream: observed }
    },
  }
}
