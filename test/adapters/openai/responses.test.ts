import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { json, openaiClient, responsesUsage, sse, toolCall, toolResult, WEATHER_TOOL_SET } from './helpers.js'
import { responsesTools, runResponsesAgent } from './weather-agent.js'

const INSTRUCTIONS = { role: 'system', content: 'You are a weather assistant.' }
const QUESTION = { role: 'user', content: 'What is the weather in Paris?' }

describe('instrumentOpenAI: responses.create', () => {
  it('records a two-step tool loop as two turns, the function_call_output taken from the next request', async () => {
    const server = await startCannedServer(inOrder(json('responses/function-call.json'), json('responses/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('responses-loop', { save: false }, () => runResponsesAgent(client, 'What is the weather in Paris?'))

    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(s.trace.turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [INSTRUCTIONS, QUESTION],
          response_text: null,
          tool_calls: [toolCall('get_weather', { city: 'Paris' }, 'call_Rsp4P4r1sLm8Qx2Vb7NkWs3h')],
          model: 'gpt-4.1-2025-04-14',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: responsesUsage(74, 17),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'completed',
        },
        tool_results: [toolResult('call_Rsp4P4r1sLm8Qx2Vb7NkWs3h', { city: 'Paris', temperature_c: 18, conditions: 'sunny' })],
        duration_ms: expect.any(Number),
      },
      {
        index: 1,
        llm_call: {
          messages: [
            INSTRUCTIONS,
            QUESTION,
            { role: 'assistant', content: null },
            { role: 'tool', content: '{"city":"Paris","temperature_c":18,"conditions":"sunny"}' },
          ],
          response_text: 'It is 18°C and sunny in Paris.',
          tool_calls: [],
          model: 'gpt-4.1-2025-04-14',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: responsesUsage(112, 11, 64),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'completed',
        },
        tool_results: [],
        duration_ms: expect.any(Number),
      },
    ])
    expect(server.requests[1]!.body).toMatchObject({
      input: [QUESTION, { type: 'function_call', call_id: 'call_Rsp4P4r1sLm8Qx2Vb7NkWs3h' }, { type: 'function_call_output' }],
    })
  })

  it('records a streamed function call whose argument deltas are keyed by item_id, not call_id', async () => {
    const server = await startCannedServer(inOrder(sse('responses/function-call.sse')))
    const client = openaiClient(server)
    const types: string[] = []

    const s = await session('responses-stream', { save: false }, async () => {
      const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris, in celsius?', tools: responsesTools, stream: true })
      for await (const event of stream) types.push(event.type)
    })

    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      ...Array<string>(11).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(s.trace.turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [{ role: 'user', content: 'Weather in Paris, in celsius?' }],
          response_text: null,
          tool_calls: [toolCall('get_weather', { city: 'Paris', unit: 'celsius' }, 'call_Rsp5tr3amLm8Qx2Vb7NkWs3h')],
          model: 'gpt-4.1-2025-04-14',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: responsesUsage(74, 22),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'completed',
        },
        tool_results: [],
        duration_ms: expect.any(Number),
      },
    ])
  })

  it('records the deltas that arrived when a Responses stream is left before response.completed', async () => {
    const server = await startCannedServer(inOrder(sse('responses/function-call.sse')))
    const client = openaiClient(server)

    const s = await session('responses-stream-break', { save: false }, async () => {
      const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?', tools: responsesTools, stream: true })
      for await (const event of stream) if (event.type === 'response.function_call_arguments.delta' && event.delta === 'ris') break
    })

    expect(s.trace.turns[0]!.llm_call).toEqual({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      response_text: null,
      tool_calls: [toolCall('get_weather', { _raw_arguments: '{"city":"Paris' }, 'call_Rsp5tr3amLm8Qx2Vb7NkWs3h')],
      model: 'gpt-4.1-2025-04-14',
      provider: 'openai',
      tool_set: WEATHER_TOOL_SET,
      token_usage: null,
      timestamp: expect.any(Number),
      latency_ms: expect.any(Number),
      error: { name: 'Error', message: 'the stream was closed by its reader before response.completed: the response is incomplete' },
    })
  })

  it('records the text that arrived when a Responses stream is aborted through its controller, saying it ended early', async () => {
    const server = await startCannedServer(inOrder(sse('responses/final-answer.sse')))
    const client = openaiClient(server)
    let text = ''

    const s = await session('responses-stream-abort', { save: false }, async () => {
      const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?', stream: true })
      for await (const event of stream) {
        if (event.type !== 'response.output_text.delta') continue
        text += event.delta
        stream.controller.abort()
      }
    })

    expect(text).not.toBe('')
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: text,
      provider: 'openai',
      error: { name: 'Error', message: 'the stream ended before response.completed: the response is incomplete (was the request aborted?)' },
    })
  })

  it('records a Responses stream at response.completed, whole, even when the reader stops right after it', async () => {
    const server = await startCannedServer(inOrder(sse('responses/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('responses-stream-completed', { save: false }, async () => {
      const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?', stream: true })
      for await (const event of stream) if (event.type === 'response.completed') break
    })

    expect(s.trace.turns[0]!.llm_call.error).toBeUndefined()
    expect(s.trace.turns[0]!.llm_call.stop_reason).toBe('completed')
  })

  it('records streamed text through the responses.stream() helper, which still yields its final response', async () => {
    const server = await startCannedServer(inOrder(sse('responses/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('responses-helper', { save: false }, async () => {
      const stream = client.responses.stream({ model: 'gpt-4.1', input: 'Weather in Paris?' })
      const deltas: string[] = []
      stream.on('response.output_text.delta', (event) => deltas.push(event.delta))
      const final = await stream.finalResponse()
      return { deltas, id: final.id, status: final.status }
    })

    expect(s.output).toEqual({
      deltas: ['It is', ' 18°C', ' and', ' sunny', ' in Paris.'],
      id: 'resp_67ccf194e2f08190a5b6c7d8e9f0a1b2087bb177ab789d5c',
      status: 'completed',
    })
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'It is 18°C and sunny in Paris.',
      token_usage: responsesUsage(120, 11, 64),
      stop_reason: 'completed',
    })
  })
})
