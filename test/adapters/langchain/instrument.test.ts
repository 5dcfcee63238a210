import { CallbackManager } from '@langchain/core/callbacks/manager'
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages'
import { RunnableLambda } from '@langchain/core/runnables'
import { tool } from '@langchain/core/tools'
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt'
import { describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import { ReagentCallbackHandler, instrumentLangChain } from '../../../src/entries/langchain.js'
import { session } from '../../../src/entries/index.js'
import { agentLoop, call, scriptedModel, TOOLS, type ScriptedTurn } from './agent-kit.js'
import { turnsOf } from './trace-shape.js'

// As a user would: once, at the top of the test file.
const registered = instrumentLangChain()

function refundGraph(script: readonly ScriptedTurn[], pauseMs = 0) {
  const model = scriptedModel(script, pauseMs)
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode([...TOOLS]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition)
    .addEdge('tools', 'agent')
    .compile()
}

describe('instrumentLangChain()', () => {
  it('returns the handler it registered, and registers it once', () => {
    expect(registered).toBeInstanceOf(ReagentCallbackHandler)
    expect(instrumentLangChain()).toBe(registered)
  })

  it('records an agent loop invoked inside a session without passing callbacks', async () => {
    const agent = agentLoop(scriptedModel([{ toolCalls: [call('lookup_order', { order_id: '42' }, 'call_1')] }, 'Order 42 was delivered.']))
    const s = await session('loop', { save: false }, () => agent.invoke('Where is order 42?'))
    expect(s.output).toBe('Order 42 was delivered.')
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Where is order 42?' }],
        response_text: null,
        tool_calls: [{ name: 'lookup_order', arguments: { order_id: '42' }, call_id: 'call_1' }],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [{ call_id: 'call_1', result: { order_id: '42', amount: 19.99, status: 'delivered' }, error: null }],
      },
      {
        messages: [
          { role: 'user', content: 'Where is order 42?' },
          { role: 'assistant', content: '' },
          { role: 'tool', content: '{"order_id":"42","amount":19.99,"status":"delivered"}' },
        ],
        response_text: 'Order 42 was delivered.',
        tool_calls: [],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
  })

  it('records a LangGraph graph (StateGraph + ToolNode), parallel tool calls and a tool error included', async () => {
    const graph = refundGraph([
      { toolCalls: [call('lookup_order', { order_id: '42' }, 'call_lookup'), call('charge_card', { cents: 100 }, 'call_charge')] },
      'Order 42 found; the card was declined.',
    ])
    const s = await session('graph', { save: false }, async () => {
      const state = await graph.invoke({ messages: [new HumanMessage('Check order 42 and charge $1')] })
      return state.messages.length
    })
    expect(s.output).toBe(5)
    const [first, second] = s.trace.turns
    expect(first!.llm_call.tool_calls.map((c) => [c.name, c.call_id])).toEqual([
      ['lookup_order', 'call_lookup'],
      ['charge_card', 'call_charge'],
    ])
    const byCall = Object.fromEntries(first!.tool_results.map(({ call_id, result, error }) => [call_id, { result, error }]))
    expect(byCall).toEqual({
      call_lookup: { result: { order_id: '42', amount: 19.99, status: 'delivered' }, error: null },
      call_charge: { result: null, error: 'Error: card declined' },
    })
    expect(second!.llm_call.response_text).toBe('Order 42 found; the card was declined.')
    expect(second!.llm_call.messages!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool'])
  })

  it('records each call once when a handler is also attached explicitly', async () => {
    const explicit = new ReagentCallbackHandler()
    const starts: string[] = []
    for (const [handler, label] of [
      [registered, 'global'],
      [explicit, 'explicit'],
    ] as const) {
      const original = handler.handleToolStart.bind(handler)
      handler.handleToolStart = (...args: Parameters<typeof original>) => {
        starts.push(label)
        original(...args)
      }
      onTestFinished(() => void Reflect.deleteProperty(handler, 'handleToolStart'))
    }
    // Handlers attached to the model and the tool themselves, which LangChain adds next to the global one.
    const model = new FakeStreamingChatModel({
      responses: [new AIMessage('')],
      chunks: [
        new AIMessageChunk({ content: '', tool_calls: [call('lookup_order', { order_id: '1' }, 'call_a'), call('lookup_order', { order_id: '2' }, 'call_b')] }),
      ],
      callbacks: [explicit],
    })
    const lookup = tool(({ order_id }) => ({ order_id }), {
      name: 'lookup_order',
      description: 'Look an order up by id.',
      schema: z.object({ order_id: z.string() }),
      callbacks: [explicit],
    })
    const agent = RunnableLambda.from(async (question: string) => {
      await model.invoke([new HumanMessage(question)])
      // Bare arguments, no tool-call id: each run must claim one pending call, once.
      return Promise.all([lookup.invoke({ order_id: '1' }), lookup.invoke({ order_id: '2' })])
    })
    const s = await session('both', { save: false }, () => agent.invoke('Orders 1 and 2?'))
    expect(starts).toEqual(['global', 'explicit', 'global', 'explicit'])
    expect(s.trace.turns).toHaveLength(1)
    const byCall = Object.fromEntries(s.trace.turns[0]!.tool_results.map((r) => [r.call_id, r.result]))
    expect(byCall).toEqual({ call_a: { order_id: '1' }, call_b: { order_id: '2' } })
  })

  it('records nothing outside a session, where LangChain runs get no handler at all', async () => {
    expect(CallbackManager.configure()).toBeUndefined()
    const graph = refundGraph([{ toolCalls: [call('lookup_order', { order_id: '1' }, 'call_out')] }, 'Outside.'])
    const state = await graph.invoke({ messages: [new HumanMessage('Order 1?')] })
    expect(state.messages.at(-1)!.text).toBe('Outside.')

    const s = await session('after', { save: false }, () => {
      expect(CallbackManager.configure()!.handlers).toEqual([registered])
      return new FakeListChatModel({ responses: ['Inside.'] }).invoke('Hi')
    })
    expect(s.trace.turns.map((t) => t.llm_call.response_text)).toEqual(['Inside.'])
  })

  it('never mixes two LangGraph runs in concurrent sessions', async () => {
    const run = (order: string, pauseMs: number) =>
      session(`graph-${order}`, { save: false }, () =>
        refundGraph([{ toolCalls: [call('lookup_order', { order_id: order }, `call_${order}`)] }, `Order ${order} found.`], pauseMs).invoke({
          messages: [new HumanMessage(`Order ${order}?`)],
        }),
      )
    const sessions = await Promise.all([run('1', 12), run('2', 3), run('3', 7)])
    sessions.forEach((s, i) => {
      const order = String(i + 1)
      expect(s.trace.turns.map((t) => t.llm_call.messages![0]!.content)).toEqual([`Order ${order}?`, `Order ${order}?`])
      expect(s.trace.turns[0]!.tool_results).toEqual([
        { call_id: `call_${order}`, result: { order_id: order, amount: 19.99, status: 'delivered' }, error: null, duration_ms: expect.any(Number) },
      ])
      expect(s.trace.turns[1]!.llm_call.response_text).toBe(`Order ${order} found.`)
    })
  })
})
