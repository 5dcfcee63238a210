import { BaseCallbackHandler } from '@langchain/core/callbacks/base'
import { HumanMessage } from '@langchain/core/messages'
import { FakeListChatModel, FakeLLM } from '@langchain/core/utils/testing'
import { describe, expect, it } from 'vitest'
import { ReagentCallbackHandler } from '../../../src/entries/langchain.js'
import { session } from '../../../src/entries/index.js'
import { resetAdapterWarnings } from '../../../src/adapter-support/index.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { agentLoop, call, fakeModelFor, lookupOrder, scriptedModel, sleep } from './agent-kit.js'
import { turnsOf } from './trace-shape.js'
import { internals } from '../../../src/session/internals.js'

describe('ReagentCallbackHandler: streams, sessions and the background', () => {
  it('records a streamed answer once, with its chunks joined, from .stream() and .streamEvents()', async () => {
    const handler = new ReagentCallbackHandler()
    const model = new FakeListChatModel({ responses: ['Sunny in Paris.'] })
    const s = await session('streams', { save: false }, async () => {
      const chunks: string[] = []
      for await (const chunk of await model.stream('Weather?', { callbacks: [handler] })) chunks.push(chunk.text)
      for await (const event of model.streamEvents('Weather again?', { callbacks: [handler], version: 'v2' })) {
        if (event.event === 'on_chat_model_stream') chunks.push('.')
      }
      const streamedCalls = await fakeModelFor({ toolCalls: [call('lookup_order', { order_id: '7' }, 'call_s')] }).stream([new HumanMessage('Order 7?')], {
        callbacks: [handler],
      })
      for await (const chunk of streamedCalls) chunks.push(chunk.text)
      return chunks.length
    })
    expect(s.output).toBe(15 + 15 + 1)
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Weather?' }],
        response_text: 'Sunny in Paris.',
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        tool_results: [],
      },
      {
        messages: [{ role: 'user', content: 'Weather again?' }],
        response_text: 'Sunny in Paris.',
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        tool_results: [],
      },
      {
        messages: [{ role: 'user', content: 'Order 7?' }],
        response_text: null,
        tool_calls: [{ name: 'lookup_order', arguments: { order_id: '7' }, call_id: 'call_s' }],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
  })

  it("records a text-completion model's prompt as a user message", async () => {
    const model = new FakeLLM({ response: 'Sunny.' })
    const s = await session('text-completion', { save: false }, () => model.invoke('Weather?', { callbacks: [new ReagentCallbackHandler()] }))
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Weather?' }],
        response_text: 'Sunny.',
        tool_calls: [],
        model: null,
        provider: 'fake',
        token_usage: null,
        tool_results: [],
      },
    ])
  })

  it('records a stream left before its end as an unfinished call when the session closes', async () => {
    const model = new FakeListChatModel({ responses: ['A long answer.'] })
    const s = await session('left-early', { save: false }, async () => {
      for await (const chunk of await model.stream('Tell me', { callbacks: [new ReagentCallbackHandler()] })) return chunk.text
      return undefined
    })
    expect(s.output).toBe('A')
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Tell me' }],
        response_text: null,
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        error: 'Error: the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
        tool_results: [],
      },
    ])
  })

  it('records nothing outside a session, and the call goes on', async () => {
    const handler = new ReagentCallbackHandler()
    const model = new FakeListChatModel({ responses: ['outside', 'inside'] })
    expect((await model.invoke('first', { callbacks: [handler] })).text).toBe('outside')
    expect((await lookupOrder.invoke({ order_id: '9' }, { callbacks: [handler] })).order_id).toBe('9')
    const s = await session('after-outside', { save: false }, () => model.invoke('second', { callbacks: [handler] }))
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'second' }],
        response_text: 'inside',
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
    expect(s.trace.orphan_results).toBeUndefined()
  })

  it('never mixes two sessions running agents concurrently through one handler', async () => {
    const handler = new ReagentCallbackHandler()
    const run = (order: string, pauseMs: number) =>
      session(`order-${order}`, { save: false }, () =>
        agentLoop(scriptedModel([{ toolCalls: [call('lookup_order', { order_id: order }, `call_${order}`)] }, `Order ${order} found.`], pauseMs)).invoke(
          `Find order ${order}`,
          { callbacks: [handler] },
        ),
      )
    const [a, b] = await Promise.all([run('1', 9), run('2', 4)])
    for (const [s, order] of [
      [a!, '1'],
      [b!, '2'],
    ] as const) {
      expect(s.output).toBe(`Order ${order} found.`)
      expect(s.trace.turns.map((t) => t.llm_call.messages![0]!.content)).toEqual([`Find order ${order}`, `Find order ${order}`])
      expect(s.trace.turns[0]!.llm_call.tool_calls.map((c) => c.call_id)).toEqual([`call_${order}`])
      expect(s.trace.turns[0]!.tool_results.map((r) => r.call_id)).toEqual([`call_${order}`])
    }
  })

  it('waits, before the session closes, for callbacks LangChain runs in the background', async () => {
    // A slow background handler ahead of ours in LangChain's callback queue.
    const slow = BaseCallbackHandler.fromMethods({ handleLLMEnd: () => sleep(40) })
    const handler = new ReagentCallbackHandler()
    handler.awaitHandlers = false
    const model = new FakeListChatModel({ responses: ['Done.'] })
    const s = await session('background', { save: false }, () => model.invoke('Go', { callbacks: [slow, handler] }))
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Go' }],
        response_text: 'Done.',
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
  })

  it('never breaks the call when recording fails, and warns once', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const model = new FakeListChatModel({ responses: ['Still answered.'] })
    const handler = new ReagentCallbackHandler()
    const s = await session('broken-recorder', { save: false }, async (s) => {
      s[internals].recordModelCall = () => {
        throw new Error('recorder unavailable')
      }
      const first = await model.invoke('One', { callbacks: [handler] })
      const second = await model.invoke('Two', { callbacks: [handler] })
      return [first.text, second.text]
    })
    expect(s.output).toEqual(['Still answered.', 'Still answered.'])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ADAPTER',
        message:
          'reagent-flow: reagent-flow/langchain: could not record a chat model call (recorder unavailable). ' +
          'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
      },
    ])
  })
})
