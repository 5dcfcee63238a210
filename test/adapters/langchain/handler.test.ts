import { HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { FakeListChatModel } from '@langchain/core/utils/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ReagentCallbackHandler } from '../../../src/entries/langchain.js'
import { session } from '../../../src/entries/index.js'
import { agentLoop, call, fakeModelFor, lookupOrder, scriptedModel } from './agent-kit.js'
import { turnsOf } from './trace-shape.js'

const REFUND_SCRIPT = [
  { toolCalls: [call('lookup_order', { order_id: '42' }, 'call_lookup')] },
  {
    text: 'Refunding now.',
    toolCalls: [call('issue_refund', { order_id: '42', amount: 19.99 }, 'call_refund'), call('charge_card', { cents: 500 }, 'call_charge')],
  },
  'Order 42 is refunded.',
]

describe('ReagentCallbackHandler: what a call records', () => {
  it('records an agent loop: messages as { role, content }, tool calls with their ids, each result (or error) on its call', async () => {
    const handler = new ReagentCallbackHandler()
    const agent = agentLoop(scriptedModel(REFUND_SCRIPT))
    const s = await session('refund', { save: false }, () => agent.invoke('Refund order 42', { callbacks: [handler] }))

    expect(s.output).toBe('Order 42 is refunded.')
    const lookupResult = { order_id: '42', amount: 19.99, status: 'delivered' }
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Refund order 42' }],
        response_text: null,
        tool_calls: [{ name: 'lookup_order', arguments: { order_id: '42' }, call_id: 'call_lookup' }],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [{ call_id: 'call_lookup', result: lookupResult, error: null }],
      },
      {
        messages: [
          { role: 'user', content: 'Refund order 42' },
          { role: 'assistant', content: '' },
          { role: 'tool', content: JSON.stringify(lookupResult) },
        ],
        response_text: 'Refunding now.',
        tool_calls: [
          { name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 }, call_id: 'call_refund' },
          { name: 'charge_card', arguments: { cents: 500 }, call_id: 'call_charge' },
        ],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [
          { call_id: 'call_refund', result: 'Refunded 19.99 on order 42.', error: null },
          { call_id: 'call_charge', result: null, error: 'Error: card declined' },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'Refund order 42' },
          { role: 'assistant', content: '' },
          { role: 'tool', content: JSON.stringify(lookupResult) },
          { role: 'assistant', content: 'Refunding now.' },
          { role: 'tool', content: 'Refunded 19.99 on order 42.' },
          { role: 'tool', content: 'Error: card declined' },
        ],
        response_text: 'Order 42 is refunded.',
        tool_calls: [],
        model: null,
        provider: 'FakeStreamingChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
    const [first] = s.trace.turns
    expect(first!.llm_call.latency_ms).toBeGreaterThanOrEqual(0)
    expect(first!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(2)
  })

  it('maps system messages and takes the model name LangChain reports (ls_model_name here)', async () => {
    const model = new FakeListChatModel({ responses: ['Bonjour.'], metadata: { ls_model_name: 'fake-gpt-4o' } })
    const s = await session('model-name', { save: false }, () =>
      model.invoke([new SystemMessage('Answer in French.'), new HumanMessage('Hello')], { callbacks: [new ReagentCallbackHandler()] }),
    )
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello' },
        ],
        response_text: 'Bonjour.',
        tool_calls: [],
        model: 'fake-gpt-4o',
        provider: 'FakeListChatModel',
        token_usage: null,
        tool_results: [],
      },
    ])
  })

  it('records a failed model call as a turn with its error, and the caller still gets the error', async () => {
    const model = new FakeListChatModel({ responses: ['unused'] })
    const failing = session('model-error', { save: false }, () =>
      model.invoke('Hi', { callbacks: [new ReagentCallbackHandler()], thrownErrorString: 'rate limited' } as object),
    )
    await expect(failing).rejects.toThrowError(new Error('rate limited'))
    const s = await session('model-error-kept', { save: false }, async () => {
      await model.invoke('Hi', { callbacks: [new ReagentCallbackHandler()], thrownErrorString: 'rate limited' } as object).catch(() => 'handled')
    })
    expect(turnsOf(s.trace)).toEqual([
      {
        messages: [{ role: 'user', content: 'Hi' }],
        response_text: null,
        tool_calls: [],
        model: null,
        provider: 'FakeListChatModel',
        token_usage: null,
        error: 'Error: rate limited',
        tool_results: [],
      },
    ])
  })

  it('matches a tool run without a tool-call id to the pending call of that name with the same arguments', async () => {
    const handler = new ReagentCallbackHandler()
    const s = await session('bare-args', { save: false }, async () => {
      await fakeModelFor({ toolCalls: [call('lookup_order', { order_id: '1' }, 'call_a'), call('lookup_order', { order_id: '2' }, 'call_b')] }).invoke(
        [new HumanMessage('Look up orders 1 and 2')],
        { callbacks: [handler] },
      )
      await Promise.all([lookupOrder.invoke({ order_id: '2' }, { callbacks: [handler] }), lookupOrder.invoke({ order_id: '1' }, { callbacks: [handler] })])
    })
    const results = Object.fromEntries(s.trace.turns[0]!.tool_results.map((r) => [r.call_id, r.result]))
    expect(results).toEqual({
      call_a: { order_id: '1', amount: 19.99, status: 'delivered' },
      call_b: { order_id: '2', amount: 19.99, status: 'delivered' },
    })
  })

  it('records a ToolMessage the tool itself marked as an error as the error of its call', async () => {
    const refuse = tool(
      async (_input, config) => new ToolMessage({ content: 'Refunds over $500 need a human.', tool_call_id: config.toolCall!.id!, status: 'error' }),
      { name: 'issue_refund', description: 'Refund an order.', schema: z.object({ amount: z.number() }) },
    )
    const handler = new ReagentCallbackHandler()
    const s = await session('tool-message-error', { save: false }, async () => {
      const answer = await fakeModelFor({ toolCalls: [call('issue_refund', { amount: 900 }, 'call_big')] }).invoke([new HumanMessage('Refund 900')], {
        callbacks: [handler],
      })
      await refuse.invoke(answer.tool_calls![0]!, { callbacks: [handler] })
    })
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_big', result: null, error: 'Refunds over $500 need a human.', duration_ms: expect.any(Number) },
    ])
  })
})
