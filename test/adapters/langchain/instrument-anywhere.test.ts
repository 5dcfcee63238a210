/**
 * `instrumentLangChain()` first called away from the code that runs the
 * agent: LangChain's own configure hook would keep the handler to the async
 * context of that first call (a vitest test file that is not the first in
 * its worker runs its tests outside the context of its top level).
 * This file must not call it at its top level.
 */
import { CallbackManager } from '@langchain/core/callbacks/manager'
import { describe, expect, it } from 'vitest'
import { instrumentLangChain, type ReagentCallbackHandler } from '../../../src/entries/langchain.js'
import { session } from '../../../src/entries/index.js'
import { agentLoop, call, scriptedModel } from './agent-kit.js'

describe('instrumentLangChain() called in an async context of its own', () => {
  it('records the agent of a session started elsewhere, and installs one handler however often it is called', async () => {
    const handler = await new Promise<ReagentCallbackHandler>((resolve) => setImmediate(() => resolve(instrumentLangChain())))
    expect(instrumentLangChain()).toBe(handler)

    const agent = agentLoop(scriptedModel([{ toolCalls: [call('lookup_order', { order_id: '42' }, 'call_1')] }, 'Order 42 was delivered.']))
    const s = await session('elsewhere', { save: false }, () => {
      expect(CallbackManager.configure()!.handlers).toEqual([handler])
      return agent.invoke('Where is order 42?')
    })

    expect(s.trace.turns.map((turn) => [turn.llm_call.tool_calls.map((c) => c.call_id), turn.tool_results.map((r) => r.call_id)])).toEqual([
      [['call_1'], ['call_1']],
      [[], []],
    ])
    expect(CallbackManager.configure()).toBeUndefined()
  })
})
