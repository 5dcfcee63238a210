/**
 * `instrumentLangChain()`: one handler for every LangChain run, through
 * LangChain's configure hook, so chains, agents and LangGraph graphs invoked
 * inside a session are recorded without passing `callbacks`.
 */
import { getContextVariable, registerConfigureHook, setContextVariable } from '@langchain/core/context'
import { ReagentCallbackHandler } from './handler.js'

/** The LangChain context variable holding the handler the hook adds to each run. */
const CONTEXT_VARIABLE = 'reagent-flow.langchain.handler'

/**
 * Registers a `ReagentCallbackHandler` with LangChain's configure hook: every
 * run started afterwards (in this async context and those it creates) gets it,
 * so everything a session invokes is recorded. Outside a session the handler
 * records nothing. Calling it again returns the handler already registered.
 *
 * Call it once at startup: at the top of a test file, or in a vitest setup file.
 *
 * @example
 * import { instrumentLangChain } from 'reagent-flow/langchain'
 * instrumentLangChain()
 */
export function instrumentLangChain(): ReagentCallbackHandler {
  const registered = getContextVariable(CONTEXT_VARIABLE)
  if (registered instanceof ReagentCallbackHandler) return registered
  const handler = new ReagentCallbackHandler()
  registerConfigureHook({ contextVar: CONTEXT_VARIABLE })
  setContextVariable(CONTEXT_VARIABLE, handler)
  return handler
}
