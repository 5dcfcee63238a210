import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { chatUsage, json, openaiClient, sse, toolCall, toolResult } from './helpers.js'
import { chatTools, getWeather, weatherParameters } from './weather-agent.js'

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }
const FINAL_TEXT = 'It is 18°C and sunny in Paris.'

describe('instrumentOpenAI keeps the SDK helpers working, and records them', () => {
  it('chat.completions.parse(): parsed tool arguments for the caller, one turn in the trace', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json')))
    const client = openaiClient(server)

    const s = await session('helper-parse', { save: false }, async () => {
      const completion = await client.chat.completions.parse({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools })
      return completion.choices[0]!.message.tool_calls![0]!
    })

    expect(s.output).toMatchObject({ function: { name: 'get_weather', parsed_arguments: { city: 'Paris' } } })
    expect(server.requests[0]!.headers['x-stainless-helper-method']).toBe('chat.completions.parse')
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls)).toEqual([[toolCall('get_weather', { city: 'Paris' }, 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c')]])
  })

  it('chat.completions.stream(): events and the final completion for the caller, one turn in the trace', async () => {
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('helper-stream', { save: false }, async () => {
      const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: [QUESTION] })
      const deltas: string[] = []
      stream.on('content', (delta) => deltas.push(delta))
      const final = await stream.finalChatCompletion()
      return { deltas, content: final.choices[0]!.message.content }
    })

    expect(s.output).toEqual({
      deltas: ['It is', ' 18°C', ' and sunny', ' in Paris', ' and 24°C', ' in Rome.'],
      content: 'It is 18°C and sunny in Paris and 24°C in Rome.',
    })
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: 'It is 18°C and sunny in Paris and 24°C in Rome.', stop_reason: 'stop' })
  })

  it('chat.completions.runTools(): the SDK runs the tool loop, the trace has both turns and the tool result', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('helper-run-tools', { save: false }, async () => {
      const runner = client.chat.completions.runTools({
        model: 'gpt-4o',
        messages: [QUESTION],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Current weather of a city.',
              parameters: weatherParameters,
              function: (args: { city: string }) => getWeather(args),
              parse: (text: string) => JSON.parse(text) as { city: string },
            },
          },
        ],
      })
      return runner.finalContent()
    })

    expect(s.output).toBe(FINAL_TEXT)
    expect(s.trace.turns.map((turn) => ({ calls: turn.llm_call.tool_calls, results: turn.tool_results, text: turn.llm_call.response_text }))).toEqual([
      {
        calls: [toolCall('get_weather', { city: 'Paris' }, 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c')],
        results: [toolResult('call_Wk3nq1UdFpYH3gL7f9rEoZ2c', getWeather({ city: 'Paris' }))],
        text: null,
      },
      { calls: [], results: [], text: FINAL_TEXT },
    ])
  })

  it('withResponse(): data, raw Response and request id for the caller, one turn in the trace', async () => {
    const server = await startCannedServer(inOrder({ ...json('chat/final-answer.json'), headers: { 'x-request-id': 'req_7f3c' } }))
    const client = openaiClient(server)

    const s = await session('helper-with-response', { save: false }, async () => {
      const { data, response, request_id } = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }).withResponse()
      return { text: data.choices[0]!.message.content, status: response.status, request_id }
    })

    expect(s.output).toEqual({ text: FINAL_TEXT, status: 200, request_id: 'req_7f3c' })
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: FINAL_TEXT, token_usage: chatUsage(121, 12, 64) })
  })

  it('asResponse(): the raw body stays unread for the caller, and the turn is still recorded', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('helper-as-response', { save: false }, async () => {
      const response = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }).asResponse()
      return { bodyUsed: response.bodyUsed, body: (await response.json()) as unknown }
    })

    expect(s.output).toEqual({ bodyUsed: false, body: fixtureJson('openai/chat/final-answer.json') })
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: FINAL_TEXT, stop_reason: 'stop' })
  })

  it('asResponse() on a stream: the caller reads the raw SSE bytes, the turn is read from a copy', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)

    const s = await session('helper-as-response-stream', { save: false }, async () => {
      const response = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true }).asResponse()
      return response.text()
    })

    expect(s.output).toBe(fixtureText('openai/chat/tool-call.sse'))
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call.tool_calls.map((call) => call.arguments)).toEqual([{ city: 'Paris' }, { city: 'Rome' }])
  })
})
