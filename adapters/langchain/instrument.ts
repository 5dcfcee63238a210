/**
 * `instrumentLangChain()`: one handler for every LangChain run, through
 * LangChain's configure hook, so chains, agents and LangGraph graphs invoked
 * inside a session are recorded without passing `callbacks`.
 */
import { getContextVariable, registerConfigureHook, setContextVariable } from '@langchain/core/context'
import { currentSession } from '../../src/adapter-support.js'
import { HANDLER_NAME, ReagentCallbackHandler } from './handler.js'
import { hookChatModels } from './model-hook.js'

/** The LangChain context variable holding the handler the hook adds to each run. */
const CONTEXT_VARIABLE = 'reagent-flow.langchain.handler'

/**
 * A handler whose name reads as a string only inside a session. LangChain adds
 * the hook's handler only when it looks like one (a string `name`, among
 * others), so a run started outside a session gets no handler at all and
 * LangChain skips its callback machinery, which costs far more than our
 * recording (see bench/suites/07-langchain.ts). Were LangChain to stop
 * checking, the handler would be added everywhere and still record nothing
 * outside a session.
 */
function sessionScopedHandler(): ReagentCallbackHandler {
  const handler = new ReagentCallbackHandler()
  Object.defineProperty(handler, 'name', {
    get: () => (currentSession() === undefined ? undefined : HANDLER_NAME),
    enumerable: true,
    configurable: true,
  })
  return handler
}

/**
 * Registers a `ReagentCallbackHandler` with LangChain's configure hook: every
 * run started inside a session afterwards gets it (in this async context and
 * those it creates), so everything the session invokes is recorded without
 * passing `callbacks`. Runs started outside a session are left alone. It
 * also hooks every chat model's call (see model-hook.ts), so a session can
 * record and replay them, and resume a run (`replay`, `resume()`).
 * Calling it again returns the handler already registered.
 *
 * Call it once at startup: at the top of a test file, or in a vitest setup file.
 *
 * @example
 * import { instrumentLangChain } from 'reagent-flow/langchain'
 * instrumentLangChain()
 */
export function instrumentLangChain(): ReagentCallbackHandler {
  hookChatModels()
  const registered = getContextVariable(CONTEXT_VARIABLE)
  if (registered instanceof ReagentCallbackHandler) return registered
  const handler = sessionScopedHandler()
  registerConfigureHook({ contextVar: CONTEXT_VARIABLE })
  setContextVariable(CONTEXT_VARIABLE, handler)
  return handler
}
