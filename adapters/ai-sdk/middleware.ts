/**
 * `reagentMiddleware()`: a LanguageModelV3 middleware for `wrapLanguageModel`
 * that records every model call (`doGenerate` and `doStream`) into the
 * active session, and the tool results each prompt hands back to the model.
 *
 * A middleware sees model calls only, never tool execution: wrap the tools
 * with `instrumentTools()` for exact results and durations.
 */
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { LanguageModelMiddleware } from 'ai'
import { currentSession, startModelCall, type ModelCall, type ModelExchange } from '../../src/adapter-support/index.js'
import { generateExchange, streamExchange } from './exchange.js'
import { modelCalls, type MiddlewareCall } from './model-calls.js'
import { observeStream } from './observe-stream.js'
import { recordSafelyAiSdk } from './record.js'
import { isRecordedAbove } from './recorded-above.js'

type Call = ModelCall<LanguageModelV3GenerateResult, LanguageModelV3StreamPart>

/**
 * What `doGenerate` and `doStream` share: outside a session the model just
 * runs; inside one, a call starts and the model runs through it (or a
 * recording answers it: `exchange`), a failure recorded and rethrown
 * unchanged. `received` takes the result over.
 */
async function callModel<R>(
  middlewareCall: MiddlewareCall,
  run: () => PromiseLike<R>,
  exchange: (call: MiddlewareCall) => ModelExchange<PromiseLike<R>>,
  received: (result: R, call: Call) => R,
): Promise<R> {
  // A call `recordedGenerate` makes through a model wrapped with this middleware is recorded there, once.
  const s = isRecordedAbove() ? undefined : currentSession()
  const call = s === undefined ? undefined : startModelCall(s, modelCalls, middlewareCall)
  if (call === undefined) return run()
  let result: R
  try {
    result = await call.send(run, exchange(middlewareCall))
  } catch (error) {
    call.fail(error)
    throw error
  }
  return received(result, call)
}

/**
 * Records every call of the wrapped model inside a session: the prompt
 * (as `{ role, content }` messages), text, tool calls with their parsed input,
 * usage (`input_tokens`, `output_tokens` and details), finish reason, model id,
 * provider and latency. Streams reach the caller unchanged and are recorded
 * when they finish (or fail, or are cancelled). Outside a session it records nothing.
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: reagentMiddleware() })
 */
export function reagentMiddleware(): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',

    wrapGenerate: ({ doGenerate, params, model }) =>
      callModel({ params, model }, doGenerate, generateExchange, (result, call) => {
        call.receive(result)
        return result
      }),

    wrapStream: ({ doStream, params, model }) =>
      callModel({ params, model }, doStream, streamExchange, (result, call) => {
        let observed: ReadableStream<LanguageModelV3StreamPart> | undefined
        recordSafelyAiSdk('a model stream', () => {
          observed = observeStream(result.stream, call.stream(), call.session)
        })
        return observed === undefined ? result : { ...result, stream: observed }
      }),
  }
}
