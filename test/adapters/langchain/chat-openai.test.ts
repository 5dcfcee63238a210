import { HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { z } from 'zod'
import { instrumentLangChain } from '../../../src/entries/langchain.js'
import { SESSION_CLOSED } from '../../../src/adapter-support/index.js'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { toolSetId } from '../../helpers/tool-set-id.js'

instrumentLangChain()

const lookupOrder = tool(async ({ order_id }) => ({ order_id, amount: 19.99, status: 'delivered' }), {
  name: 'lookup_order',
  description: 'Look an order up by id.',
  schema: z.object({ order_id: z.string() }),
})
const issueRefund = tool(async ({ order_id, amount }) => `Refunded $${amount} on order ${order_id}.`, {
  name: 'issue_refund',
  description: 'Refund an order.',
  schema: z.object({ order_id: z.string(), amount: z.number() }),
})

/** The two tools as the trace keeps them: as ChatOpenAI sends them, their zod schemas converted to JSON Schema (2020-12) when they are bound. */
const REFUND_TOOLS = [
  {
    description: 'Refund an order.',
    kind: 'function',
    name: 'issue_refund',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      additionalProperties: false,
      properties: { amount: { type: 'number' }, order_id: { type: 'string' } },
      required: ['order_id', 'amount'],
      type: 'object',
    },
  },
  {
    description: 'Look an order up by id.',
    kind: 'function',
    name: 'lookup_order',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      additionalProperties: false,
      properties: { order_id: { type: 'string' } },
      required: ['order_id'],
      type: 'object',
    },
  },
]
const REFUND_TOOL_SET = toolSetId(REFUND_TOOLS)

/** An OpenAI answer whose usage has only the three counts, as many OpenAI-compatible servers send it. */
function withoutTokenDetails(payload: { usage: Record<string, unknown> }): unknown {
  const { prompt_tokens_details: _prompt, completion_tokens_details: _completion, ...usage } = payload.usage
  return { ...payload, usage }
}

function chatOpenAI(url: string): ChatOpenAI {
  return new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-not-a-key', maxRetries: 0, configuration: { baseURL: `${url}/v1` } })
}

describe('LangChain with ChatOpenAI against OpenAI chat completions (canned)', () => {
  it('records a createReactAgent run: model, token usage, stop reason, tool calls with their OpenAI ids, and results', async () => {
    const warnings = captureWarnings()
    const server = await startCannedServer(
      inOrder(
        { json: fixtureJson('langchain/openai-chat-tool-call.json') },
        { json: fixtureJson('langchain/openai-chat-tool-call-refund.json') },
        { json: fixtureJson('langchain/openai-chat-final-answer.json') },
      ),
    )
    const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: [lookupOrder, issueRefund] })
    const s = await session('refund-agent', { save: false }, async () => {
      const state = await agent.invoke({ messages: [new SystemMessage('You handle refunds.'), new HumanMessage('Refund order 42, please.')] })
      return state.messages.at(-1)!.text
    })

    expect(s.output).toBe('Order 42 is refunded: $19.99 is on its way back to your card.')
    // The tools bound to the model, as ChatOpenAI sends them: zod schemas converted to JSON Schema, stored once for the three calls.
    expect(s.trace.tool_sets).toEqual({ [REFUND_TOOL_SET]: REFUND_TOOLS })
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions'])
    const usage = (input: number, output: number, cached: number) => ({
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      input_token_details: { audio: 0, cache_read: cached },
      output_token_details: { audio: 0, reasoning: 0 },
    })
    const history = [
      { role: 'system', content: 'You handle refunds.' },
      { role: 'user', content: 'Refund order 42, please.' },
    ]
    const lookupResult = { order_id: '42', amount: 19.99, status: 'delivered' }
    expect(
      s.trace.turns.map(({ llm_call: { timestamp: _t, latency_ms: _l, tool_calls, ...call }, tool_results }) => ({
        ...call,
        tool_calls: tool_calls.map(({ timestamp: _ts, ...rest }) => rest),
        tool_results: tool_results.map(({ duration_ms: _d, ...rest }) => rest),
      })),
    ).toEqual([
      {
        messages: history,
        response_text: null,
        tool_calls: [{ name: 'lookup_order', arguments: { order_id: '42' }, call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e' }],
        model: 'gpt-4o-mini-2024-07-18',
        provider: 'openai',
        tool_set: REFUND_TOOL_SET,
        token_usage: usage(112, 17, 0),
        stop_reason: 'tool_calls',
        tool_results: [{ call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e', result: lookupResult, error: null }],
      },
      {
        messages: [...history, { role: 'assistant', content: '' }, { role: 'tool', content: JSON.stringify(lookupResult) }],
        response_text: null,
        tool_calls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 }, call_id: 'call_F3dWs8Jp0aYkN5mRc2Tx7LbQ' }],
        model: 'gpt-4o-mini-2024-07-18',
        provider: 'openai',
        tool_set: REFUND_TOOL_SET,
        token_usage: usage(171, 24, 0),
        stop_reason: 'tool_calls',
        tool_results: [{ call_id: 'call_F3dWs8Jp0aYkN5mRc2Tx7LbQ', result: 'Refunded $19.99 on order 42.', error: null }],
      },
      {
        messages: [
          ...history,
          { role: 'assistant', content: '' },
          { role: 'tool', content: JSON.stringify(lookupResult) },
          { role: 'assistant', content: '' },
          { role: 'tool', content: 'Refunded $19.99 on order 42.' },
        ],
        response_text: 'Order 42 is refunded: $19.99 is on its way back to your card.',
        tool_calls: [],
        model: 'gpt-4o-mini-2024-07-18',
        provider: 'openai',
        tool_set: REFUND_TOOL_SET,
        token_usage: usage(222, 19, 128),
        stop_reason: 'stop',
        tool_results: [],
      },
    ])
    expect(await warnings.seen()).toEqual([])
  })

  it('records a streamed ChatOpenAI answer once, with the usage OpenAI sends in its last chunk', async () => {
    const server = await startCannedServer(inOrder({ sse: fixtureText('langchain/openai-chat-stream-answer.sse') }))
    const model = chatOpenAI(server.url)
    const s = await session('stream', { save: false }, async () => {
      const pieces: string[] = []
      for await (const chunk of await model.stream('When does order 42 ship?')) pieces.push(chunk.text)
      return pieces.join('')
    })
    expect(s.output).toBe('Order 42 ships tomorrow.')
    expect((server.requests[0]!.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true })
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      messages: [{ role: 'user', content: 'When does order 42 ship?' }],
      response_text: 'Order 42 ships tomorrow.',
      tool_calls: [],
      model: 'gpt-4o-mini-2024-07-18',
      token_usage: { input_tokens: 38, output_tokens: 6, total_tokens: 44 },
      stop_reason: 'stop',
    })
  })

  it('records a ChatOpenAI stream left early (break) when the session closes, with the error every adapter gives a response not read to its end', async () => {
    const server = await startCannedServer(inOrder({ sse: fixtureText('langchain/openai-chat-stream-answer.sse') }))
    const model = chatOpenAI(server.url)
    const s = await session('stream-break', { save: false }, async () => {
      for await (const chunk of await model.stream('When does order 42 ship?')) if (chunk.text !== '') return chunk.text
      return undefined
    })
    expect(s.output).toBe('Order')
    // LangChain tells its callbacks nothing when a stream is left: the run is still open when the session closes.
    expect(s.trace.turns.map((turn) => turn.llm_call)).toEqual([
      {
        messages: [{ role: 'user', content: 'When does order 42 ship?' }],
        response_text: null,
        tool_calls: [],
        model: 'gpt-4o-mini',
        provider: 'openai',
        token_usage: null,
        timestamp: expect.any(Number),
        latency_ms: expect.any(Number),
        error: { name: 'Error', message: SESSION_CLOSED },
      },
    ])
  })

  it('records the token usage of an answer that names no token details as it is, with no warning about the undefined details LangChain fills in', async () => {
    const warnings = captureWarnings()
    const server = await startCannedServer(inOrder({ json: withoutTokenDetails(fixtureJson('langchain/openai-chat-final-answer.json')) }))
    const usages: unknown[] = []
    const s = await session('no-details', { save: false }, async () => {
      usages.push((await chatOpenAI(server.url).invoke('Refund order 42, please.')).usage_metadata)
    })

    // What LangChain hands the handler: every detail it knows of, undefined.
    expect(usages[0]).toMatchObject({ input_token_details: { audio: undefined, cache_read: undefined } })
    expect(s.trace.turns[0]!.llm_call.token_usage).toEqual({ input_tokens: 222, output_tokens: 19, total_tokens: 241 })
    expect(await warnings.seen()).toEqual([])
  })

  it('records the error LangGraph answers a call of a tool the agent does not have with, on that call', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('langchain/openai-chat-tool-call.json') }, { json: fixtureJson('langchain/openai-chat-final-answer.json') }),
    )
    // The model calls lookup_order; the agent only has issue_refund.
    const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: [issueRefund] })
    const s = await session('unknown-tool', { save: false }, () => agent.invoke({ messages: [new HumanMessage('Refund order 42, please.')] }))

    expect(s.trace.turns.map((turn) => turn.tool_results)).toEqual([
      [
        {
          call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e',
          result: null,
          error: 'Error: Tool "lookup_order" not found.\n Please fix your mistakes.',
          duration_ms: expect.any(Number),
        },
      ],
      [],
    ])
    expect(() => s.assertToolSucceeded('lookup_order')).toThrow()
  })

  it('records a tool-call argument that does not fit the tool schema as the error LangGraph answers it with', async () => {
    const badArguments = fixtureJson<{ choices: Array<{ message: { tool_calls: Array<{ function: { name: string; arguments: string } }> } }> }>(
      'langchain/openai-chat-tool-call.json',
    )
    badArguments.choices[0]!.message.tool_calls[0]!.function.arguments = '{"order_id":42}'
    const server = await startCannedServer(inOrder({ json: badArguments }, { json: fixtureJson('langchain/openai-chat-final-answer.json') }))
    const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: [lookupOrder] })
    const s = await session('bad-arguments', { save: false }, () => agent.invoke({ messages: [new HumanMessage('Refund order 42, please.')] }))

    const [result] = s.trace.turns[0]!.tool_results
    expect(result).toMatchObject({ call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e', result: null })
    expect(result!.error).toMatch(/^Error: Received tool input did not match expected schema/)
  })

  it('records a tool call whose arguments did not parse, which no tool runs for, with the parse error as its result', async () => {
    const unparsable = fixtureJson<{ choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }> }>(
      'langchain/openai-chat-tool-call.json',
    )
    unparsable.choices[0]!.message.tool_calls[0]!.function.arguments = '{"order_id": "42"'
    // LangChain's own console advice about a message with invalid tool calls only: not this test's subject.
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => quiet.mockRestore())
    const server = await startCannedServer(inOrder({ json: unparsable }))
    const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: [lookupOrder] })
    const s = await session('unparsable', { save: false }, () => agent.invoke({ messages: [new HumanMessage('Refund order 42, please.')] }))

    expect(s.trace.turns[0]!.llm_call.tool_calls).toMatchObject([{ name: 'lookup_order', call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e' }])
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_q7Lk2mVx9TcRb4YnPz1sHd8e', result: null, error: expect.any(String), duration_ms: expect.any(Number) },
    ])
    // LangChain's parse error, whose last lines are the JSON parser's (Node's own wording).
    expect(s.trace.turns[0]!.tool_results[0]!.error).toMatch(
      /^InvalidToolCall: Function "lookup_order" arguments:\n\n\{"order_id": "42"\n\nare not valid JSON\.\nError: /,
    )
  })

  it('records the same canned OpenAI responses the OpenAI adapter is tested with (fixtures/openai)', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/tool-call.json') }, { json: fixtureJson('openai/chat/final-answer.json') }))
    const getWeather = tool(async ({ city }) => ({ city, temperature_c: 18, sky: 'sunny' }), {
      name: 'get_weather',
      description: 'Current weather of a city.',
      schema: z.object({ city: z.string() }),
    })
    const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: [getWeather] })
    const s = await session('weather-agent', { save: false }, async () => {
      const state = await agent.invoke({ messages: [new HumanMessage('What is the weather in Paris?')] })
      return state.messages.at(-1)!.text
    })

    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(s.trace.turns.map((turn) => turn.llm_call.model)).toEqual(['gpt-4o-2024-08-06', 'gpt-4o-2024-08-06'])
    expect(s.trace.turns[0]!.llm_call.tool_calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, call_id: 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c', timestamp: expect.any(Number) },
    ])
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c', result: { city: 'Paris', temperature_c: 18, sky: 'sunny' }, error: null, duration_ms: expect.any(Number) },
    ])
    expect(s.trace.turns[1]!.llm_call.response_text).toBe('It is 18°C and sunny in Paris.')
    s.assertFlow(['get_weather'])
    s.assertToolSucceeded('get_weather')
  })
})
