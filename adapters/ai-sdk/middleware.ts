/**
 * `reagentMiddleware()`: a LanguageModelV3 middleware for `wrapLanguageModel`
 * that records every model call (`doGenerate` and `doStream`) into the
 * active session, and the tool results each prompt hands back to the model.
 *
 * A middleware sees model calls only, never tool execution: wrap the tools
 * with `instrumentTools()` for exact results and durations.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamResult } from '@ai-sdk/provider'
import type { LanguageModelMiddleware } from 'ai'
import { currentSession, type Session } from '../../src/adapter-support.js'
import { ModelCall, recordPromptResults } from './model-call.js'
import { observeStream } from './observe-stream.js'
import { recordSafelyAiSdk } from './record.js'

/**
 * What `doGenerate` and `doStream` share: outside a session the model just
 * runs; inside one, the prompt's tool results are recorded, a ModelCall
 * starts, and the model runs, a failure recorded and rethrown unchanged.
 * `received` takes the result over.
 */
async function callModel<R>(
  prompt: LanguageModelV3Prompt,
  modelId: string,
  run: () => PromiseLike<R>,
  received: (result: R, call: ModelCall, s: Session) => R,
): Promise<R> {
  const s = currentSession()
  if (s === undefined) return run()
  recordPromptResults(s, prompt)
  const call = new ModelCall(s, prompt, modelId)
  let result: R
  try {
    result = await run()
  } catch (error) {
    call.fail(error)
    call.log()
    throw error
  }
  return received(result, call, s)
}

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

    wrapGenerate: ({ doGenerate, params, model }) =>
      callModel(params.prompt, model.modelId, doGenerate, (result, call) => {
        recordSafelyAiSdk('a model response', () => {
          for (const part of result.content) call.observe(part)
          call.finish({ usage: result.usage, finishReason: result.finishReason, modelId: result.response?.modelId })
        })
        call.log()
        return result
      }),

    wrapStream: ({ doStream, params, model }) =>
      callModel(params.prompt, model.modelId, doStream, (result, call, s) => {
        let observed: LanguageModelV3StreamResult['stream'] | undefined
        recordSafelyAiSdk('a model stream', () => {
          observed = observeStream(result.stream, call, s)
        })
        return observed === undefined ? result : { ...result, stream: observed }
      }),
  }
}
