/**
 * `instrumentLangChain()`: one handler for every LangChain run started inside
 * a session, so chains, agents and LangGraph graphs are recorded without
 * passing `callbacks`.
 *
 * Not through LangChain's configure hook: `registerConfigureHook` and
 * `setContextVariable` keep the hook and the handler in LangChain's
 * AsyncLocalStorage (`enterWith`), so they reach only the async context the
 * call was made in and those it creates. A vitest test file evaluated after
 * another in the same worker (`isolate: false`) runs its tests outside the
 * context of its own top level: the handler never reached them and the
 * session recorded nothing. Instead the adapter wraps the one place every
 * LangChain run gets its callbacks (`CallbackManager._configureSync`, which
 * `configure()` and the runnables' config both go through), once per
 * process, and adds the handler there whenever the run starts inside a
 * session, whatever the async context LangChain keeps.
 */
import { CallbackManager, type Callbacks } from '@langchain/core/callbacks/manager'
// LangChain hands a run's config (its callbacks) to the runs it starts through an AsyncLocalStorage it
// sets up only when this entry (or LangGraph) is imported: without it, a handler passed to an outer
// runnable never reaches the model that runnable calls.
import '@langchain/core/context'
import { currentSession, markInstrumented, patchMethod } from '../../src/adapter-support/index.js'
import { HANDLER_NAME, ReagentCallbackHandler } from './handler.js'
import { hookChatModels } from './model-hook.js'

/** Where the handler lives: on LangChain's class, so every copy of this adapter that patches the same `@langchain/core` shares it. */
const HANDLER = Symbol.for('reagent-flow.langchain.handler.v2')
const CONFIGURE_HOOKED = Symbol.for('reagent-flow.langchain.configure-hook.v2')

type Configure = (this: unknown, inheritable?: Callbacks, local?: Callbacks, ...rest: unknown[]) => CallbackManager | undefined
type Holder = { [HANDLER]?: ReagentCallbackHandler }

function hasHandlerNamed(callbacks: Callbacks | undefined, name: string): boolean {
  if (callbacks === undefined) return false
  const handlers = Array.isArray(callbacks) ? callbacks : callbacks.handlers
  return handlers.some((handler) => (handler as { name?: unknown } | undefined)?.name === name)
}

/**
 * Adds `handler` to every run configured inside a session, as an inheritable
 * handler (its child runs get it from their parent), unless a handler of its
 * name is there already (an explicit `ReagentCallbackHandler`, or the
 * parent's). Runs outside a session are configured as they were: no handler,
 * so LangChain skips its callback bookkeeping (see bench/suites/07-langchain.ts).
 */
function addHandlerInSessions(handler: ReagentCallbackHandler): void {
  patchMethod<Configure>(
    CallbackManager,
    '_configureSync',
    (original) =>
      function (this: unknown, inheritable, local, ...rest) {
        if (currentSession() === undefined || hasHandlerNamed(inheritable, HANDLER_NAME) || hasHandlerNamed(local, HANDLER_NAME)) {
          return original.call(this, inheritable, local, ...rest)
        }
        if (inheritable === undefined || Array.isArray(inheritable)) return original.call(this, [...(inheritable ?? []), handler], local, ...rest)
        // A parent's manager: LangChain configures a copy of it, which can take one more handler.
        const manager = original.call(this, inheritable, local, ...rest)
        manager?.addHandler(handler, true)
        return manager
      },
  )
}

/**
 * Makes every LangChain run started inside a session record into it, with
 * one `ReagentCallbackHandler`, so everything the session invokes is recorded
 * without passing `callbacks`. Runs started outside a session are left alone.
 * It also hooks every chat model's call (see model-hook.ts), so a session can
 * record and replay them, and resume a run (`replay`, `resume()`).
 *
 * Call it anywhere, any number of times, before the agent runs: at the top of
 * a test file, in a vitest setup file, inside a test. It works the same in
 * every async context, test file order, pool and isolation, and returns the
 * one handler it installed.
 *
 * @example
 * import { instrumentLangChain } from 'reagent-flow/langchain'
 * instrumentLangChain()
 */
export function instrumentLangChain(): ReagentCallbackHandler {
  hookChatModels()
  const holder = CallbackManager as unknown as Holder
  const installed = holder[HANDLER]
  if (installed !== undefined) return installed
  const handler = new ReagentCallbackHandler()
  Object.defineProperty(holder, HANDLER, { value: handler })
  if (markInstrumented(CallbackManager, CONFIGURE_HOOKED)) addHandlerInSessions(handler)
  return handler
}
