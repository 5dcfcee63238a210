/**
 * A session that called a LangChain chat model which no reagent-flow
 * handler saw says so when it closes. The model hook alone stands for that
 * case here (what `instrumentLangChain()` installs, without its handler).
 * This file must not call `instrumentLangChain()`.
 */
import { FakeListChatModel } from '@langchain/core/utils/testing'
import { describe, expect, it } from 'vitest'
import { ReagentCallbackHandler } from '../../../src/entries/langchain.js'
import { hookChatModels } from '../../../adapters/langchain/model-hook.js'
import { session } from '../../../src/entries/index.js'
import { captureWarnings } from '../../helpers/warnings.js'

hookChatModels()

const HOW_TO_FIX =
  'LangChain ran them without the reagent-flow handler. Call instrumentLangChain() from reagent-flow/langchain before the agent runs ' +
  "(at the top of the test file or in a vitest setup file), or pass a ReagentCallbackHandler in the run's callbacks."

describe('a session whose LangChain chat model calls were not recorded', () => {
  it('warns when it closes, naming the session, LangChain and the model; a session that recorded its calls, or called no LangChain model, says nothing', async () => {
    const warnings = captureWarnings()
    const model = new FakeListChatModel({ responses: ['Order 42 is on its way.', 'It ships tomorrow.'] })
    const s = await session('support agent', { save: false }, async () => {
      await model.invoke('Where is order 42?')
      return (await model.invoke('When does it ship?')).text
    })
    await session('all seen', { save: false }, () => model.invoke('Hi', { callbacks: [new ReagentCallbackHandler()] }))
    await session('no langchain', { save: false }, (s) => void s.logLlmCall({ responseText: 'Hello.' }))
    await session('nothing at all', { save: false }, () => 'idle')

    expect(s.output).toBe('It ships tomorrow.')
    expect(s.trace.turns).toEqual([])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ADAPTER',
        message: `reagent-flow: session "support agent" called LangChain chat models 2 times (FakeListChatModel) and recorded none of those calls: ${HOW_TO_FIX}`,
      },
    ])
  })

  it('counts the calls it did not record among those it did', async () => {
    const warnings = captureWarnings()
    const model = new FakeListChatModel({ responses: ['Recorded.', 'Not recorded.'] })
    const s = await session('half seen', { save: false }, async () => {
      await model.invoke('First', { callbacks: [new ReagentCallbackHandler()] })
      await model.invoke('Second')
    })

    expect(s.trace.turns.map((turn) => turn.llm_call.response_text)).toEqual(['Recorded.'])
    expect((await warnings.seen()).map((warning) => warning.message)).toEqual([
      `reagent-flow: session "half seen" called LangChain chat models 2 times (FakeListChatModel) and did not record 1 of them: ${HOW_TO_FIX}`,
    ])
  })
})
