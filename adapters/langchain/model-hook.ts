/**
 * A hook at the chat model, for what callbacks cannot do: answer a call.
 * LangChain tells callbacks about a call, but the call itself is made by the
 * model's `_generate` (or `_streamResponseChunks`), and that is where a
 * recording (or a resumed run) answers it, through the run's ModelCall
 * (started by the callback handler just before).
 *
 * `instrumentLangChain()` patches the two entries every chat model goes
 * through (`BaseChatModel`'s `_generateUncached` and `_streamIterator`):
 * the first time a model instance passes there, its own `_generate` and
 * `_streamResponseChunks` (when it streams) are wrapped by own properties of
 * the instance, so every subclass (ChatOpenAI, any BaseChatModel) is
 * answered at the first method LangChain calls on it, whatever its class
 * overrides. Outside a session the wrappers call the model's method as it is.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models'
import type { BaseMessage } from '@langchain/core/messages'
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import { currentSession, markInstrumented, patchMethod, recordSafely } from '../../src/adapter-support/index.js'
import { generateExchange, streamExchange } from './exchange.js'
import { ADAPTER } from './model-calls.js'
import { modelRunOf } from './runs.js'
import { noteModelCall } from './unrecorded-calls.js'

const HOOKED = Symbol.for('reagent-flow.langchain.model-hook')

type Method = (this: unknown, messages: BaseMessage[], options: never, runManager?: CallbackManagerForLLMRun) => unknown

/**
 * The run's ModelCall, when this call is recorded in a session. A call made
 * in a session is noted, recorded or not, for the warning about calls no
 * handler saw (one with no run manager at all ran with no callbacks); it is
 * known by its run, else by its messages (a model's `_generate` may hand them
 * to its own `_streamResponseChunks`, both hooked).
 */
function callOf(model: BaseChatModel, messages: BaseMessage[], runManager: CallbackManagerForLLMRun | undefined) {
  const session = currentSession()
  if (session === undefined) return undefined
  const call = runManager === undefined ? undefined : modelRunOf(runManager.runId)
  recordSafely(ADAPTER, 'a chat model call', () => noteModelCall(session, runManager?.runId ?? messages, model.getName(), call !== undefined))
  return call
}

function hookInstance(model: BaseChatModel): void {
  if (!markInstrumented(model, HOOKED)) return
  patchMethod<Method>(
    model,
    '_generate',
    (original) =>
      function (this: unknown, messages, options, runManager) {
        const call = callOf(this as BaseChatModel, messages, runManager)
        if (call === undefined) return original.call(this, messages, options, runManager)
        return call.send(() => original.call(this, messages, options, runManager) as never, generateExchange(this as BaseChatModel, messages, options))
      },
  )
  // A model that does not stream keeps the base class's method: LangChain checks for it to decide whether to stream.
  if (model._streamResponseChunks === BaseChatModel.prototype._streamResponseChunks) return
  patchMethod<Method>(
    model,
    '_streamResponseChunks',
    (original) =>
      function (this: unknown, messages, options, runManager) {
        const call = callOf(this as BaseChatModel, messages, runManager)
        if (call === undefined) return original.call(this, messages, options, runManager)
        return call.send(() => original.call(this, messages, options, runManager) as never, streamExchange(this as BaseChatModel, messages, options))
      },
  )
}

/** Patches BaseChatModel (the copy this adapter resolves, the user's) once per process. */
export function hookChatModels(): void {
  const prototype = BaseChatModel.prototype as unknown as Record<string, unknown>
  if (!markInstrumented(prototype, HOOKED)) return
  for (const entry of ['_generateUncached', '_streamIterator']) {
    patchMethod<(this: unknown, ...args: never[]) => unknown>(
      prototype,
      entry,
      (original) =>
        function (this: unknown, ...args: never[]) {
          if (currentSession() !== undefined && this !== null && typeof this === 'object') hookInstance(this as BaseChatModel)
          return original.apply(this, args)
        },
    )
  }
}
