import { APIPromise } from 'openai'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { chatUsage, json, openaiClient, toolCall, toolResult, WEATHER_TOOL_SET } from './helpers.js'
import { chatTools, getWeather, runChatAgent } from './weather-agent.js'

const SYSTEM = { role: 'system' as const, content: 'You are a weather assistant.' }
const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

describe('instrumentOpenAI: chat.completions.create', () => {
  it('records a two-step tool loop as two turns, the tool result taken from the next request', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('chat-loop', { save: false }, () => runChatAgent(client, 'What is the weather in Paris?'))

    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(s.trace.turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [SYSTEM, QUESTION],
          response_text: null,
          tool_calls: [toolCall('get_weather', { city: 'Paris' }, 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c')],
          model: 'gpt-4o-2024-08-06',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: chatUsage(82, 16),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'tool_calls',
        },
        tool_results: [toolResult('call_Wk3nq1UdFpYH3gL7f9rEoZ2c', { city: 'Paris', temperature_c: 18, conditions: 'sunny' })],
        duration_ms: expect.any(Number),
      },
      {
        index: 1,
        llm_call: {
          messages: [
            SYSTEM,
            QUESTION,
            { role: 'assistant', content: null },
            { role: 'tool', content: '{"city":"Paris","temperature_c":18,"conditions":"sunny"}' },
          ],
          response_text: 'It is 18°C and sunny in Paris.',
          tool_calls: [],
          model: 'gpt-4o-2024-08-06',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: chatUsage(121, 12, 64),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'stop',
        },
        tool_results: [],
        duration_ms: expect.any(Number),
      },
    ])
  })

  it('times the call and the tool: latency_ms is the request, the result runs from the response to the next request', async () => {
    const server = await startCannedServer(inOrder({ ...json('chat/tool-call.json'), delayMs: 40 }, json('chat/final-answer.json')))
    const client = openaiClient(server)
    const s = await session('chat-timing', { save: false }, async () => {
      const messages = [QUESTION]
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: chatTools })
      await new Promise((resolve) => setTimeout(resolve, 30))
      const call = first.choices[0]!.message.tool_calls![0]!
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [...messages, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'sunny' }],
      })
    })
    const [first, second] = s.trace.turns
    // Timers may fire a little before their delay by the performance clock: leave a margin.
    expect(first!.llm_call.latency_ms).toBeGreaterThanOrEqual(35)
    expect(first!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(25)
    expect(first!.tool_results[0]!.result).toBe('sunny')
    expect(second!.llm_call.timestamp).toBeGreaterThan(first!.llm_call.timestamp)
  })

  it('records parallel tool calls of one response, and both results from the next request', async () => {
    const server = await startCannedServer(inOrder(json('chat/parallel-tool-calls.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('chat-parallel', { save: false }, () => runChatAgent(client, 'Paris or Rome?'))

    const [first] = s.trace.turns
    expect(first!.llm_call.tool_calls).toEqual([
      toolCall('get_weather', { city: 'Paris' }, 'call_P4r1sWq8Zb2nXv6Lk0TcYd3e'),
      toolCall('get_weather', { city: 'Rome' }, 'call_R0m3aHj5Gt9mQc2Wv7NbLs1x'),
    ])
    expect(first!.tool_results).toEqual([
      toolResult('call_P4r1sWq8Zb2nXv6Lk0TcYd3e', getWeather({ city: 'Paris' })),
      toolResult('call_R0m3aHj5Gt9mQc2Wv7NbLs1x', getWeather({ city: 'Rome' })),
    ])
    expect(s.trace.turns).toHaveLength(2)
  })

  it('records a tool message as the value the tool returned: JSON objects parsed, other text ("42") kept, text parts joined', async () => {
    const server = await startCannedServer(inOrder(json('chat/parallel-tool-calls.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('chat-tool-output', { save: false }, async () => {
      const messages: ChatCompletionMessageParam[] = [QUESTION]
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: chatTools })
      const [paris, rome] = first.choices[0]!.message.tool_calls!
      messages.push(first.choices[0]!.message)
      messages.push({ role: 'tool', tool_call_id: paris!.id, content: '42' })
      messages.push({
        role: 'tool',
        tool_call_id: rome!.id,
        content: [
          { type: 'text', text: '{"temperature_c":' },
          { type: 'text', text: '24}' },
        ],
      })
      await client.chat.completions.create({ model: 'gpt-4o', messages, tools: chatTools })
    })

    expect(s.trace.turns[0]!.tool_results).toEqual([
      toolResult('call_P4r1sWq8Zb2nXv6Lk0TcYd3e', '42'),
      toolResult('call_R0m3aHj5Gt9mQc2Wv7NbLs1x', { temperature_c: 24 }),
    ])
  })

  it('keeps arguments that are not JSON whole, under _raw_arguments, with the stop reason that explains them', async () => {
    const server = await startCannedServer(inOrder(json('chat/truncated-arguments.json')))
    const client = openaiClient(server)

    const s = await session('chat-truncated', { save: false }, () =>
      client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, max_completion_tokens: 5 }),
    )

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      tool_calls: [toolCall('get_weather', { _raw_arguments: '{"city":"Par' }, 'call_Tr7nc4t3dQx9Lm2Vb5NkWs8h')],
      stop_reason: 'length',
    })
  })

  it('records the first of several choices (n: 2), and a custom tool call with its free-form input kept raw', async () => {
    const server = await startCannedServer(inOrder(json('chat/two-choices-custom-tool.json')))
    const client = openaiClient(server)

    const s = await session('chat-two-choices', { save: false }, () => client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], n: 2 }))

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: null,
      tool_calls: [toolCall('run_sql', { _raw_arguments: "SELECT temperature_c FROM weather WHERE city = 'Paris'" }, 'call_Cu5t0mQx8Lm2Vb7NkWs3hJ4d')],
      stop_reason: 'tool_calls',
    })
  })

  it("does nothing outside a session: the SDK's own APIPromise, no record, no warning", async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const warnings = captureWarnings()

    const promise = client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })
    expect(promise.constructor).toBe(APIPromise)
    await promise
    const s = await session('chat-after-outside', { save: false }, () => client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }))

    expect(s.trace.turns.map((turn) => turn.llm_call.response_text)).toEqual(['It is 18°C and sunny in Paris.'])
    expect(await warnings.seen()).toEqual([])
  })
})
