/**
 * `recordedGenerate(model, params)`: one `doGenerate` of any LanguageModelV3,
 * recorded (and replayed) in the current session as `reagentMiddleware()`
 * records it, whether or not the model is already wrapped with it. For code
 * that asks a model the user handed over (a simulated user, a simulated
 * tool, a judge), which cannot know how the model was built.
 *
 * A model wrapped with the middleware would record the call a second time,
 * from inside this one: its middleware lets calls made inside this one
 * through (recorded-above.ts), as they are recorded here with the same
 * provider, model id and request.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { reagentMiddleware } from './middleware.js'
import { runRecordedAbove } from './recorded-above.js'

export async function recordedGenerate(model: LanguageModelV3, params: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
  const doGenerate = (): PromiseLike<LanguageModelV3GenerateResult> => runRecordedAbove(() => model.doGenerate(params))
  // The middleware defines `wrapGenerate`; the check is for the type, which makes every hook optional.
  const wrapGenerate = reagentMiddleware().wrapGenerate
  if (wrapGenerate === undefined) return doGenerate()
  return wrapGenerate({ doGenerate, doStream: () => runRecordedAbove(() => model.doStream(params)), params, model })
}
