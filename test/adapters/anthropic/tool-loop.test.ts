import type Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { session, traceTool } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { MODEL, instrumentedClient, stableTurns, weatherTool } from './helpers.js'

type MessageParam = Anthropic.MessageParam

const SYSTEM = 'You are a weather assistant.'
const ASK = { role: 'user', content: 'What is the weather in Paris?' } as const
const WEATHER_CALL = 'toolu_01A09q90qw90lq917835lq9'

const firstUsage = {
  input_tokens: 412,
  output_tokens: 71,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  service_tier: 'standard',
}
const finalUsage = { ...firstUsage, input_tokens: 503, output_tokens: 16 }

function toolUses(message: Anthropic.Message): Anthropic.ToolUseBlock[] {
  return message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
}

describe('instrumentAnthropic(): tool loops with messages.create()', () => {
  it('records a two-step tool loop as two turns, the tool_result of the second request attached to the first turn', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)
    const sent: MessageParam[][] = []

    const s = await session('weather-agent', { save: false }, async () => {
      const messages: MessageParam[] = [ASK]
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, system: SYSTEM, tools: [weatherTool], messages })
      sent.push([...messages])
      messages.push({ role: 'assistant', content: first.content })
      const [call] = toolUses(first)
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: JSON.stringify({ temperature: 18, sky: 'sunny' }) }] })
      const final = await client.messages.create({ model: MODEL, max_tokens: 1024, system: SYSTEM, tools: [weatherTool], messages })
      sent.push([...messages])
      return final.content[0]?.type === 'text' ? final.content[0].text : ''
    })

    expect(s.output).toBe('It is 18°C and sunny in Paris right now.')
    const firstResponse = fixtureJson<Anthropic.Message>('anthropic/weather-tool-use.json')
    expect(stableTurns(s.trace)).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [{ role: 'system', content: SYSTEM }, ASK],
          response_text: "I'll check the current weather in Paris.",
          tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' }, call_id: WEATHER_CALL, timestamp: 0 }],
          model: MODEL,
          provider: 'anthropic',
          tool_set: 'ts_760c49c5a713',
          token_usage: firstUsage,
          timestamp: 0,
          latency_ms: 0,
          stop_reason: 'tool_use',
        },
        tool_results: [{ call_id: WEATHER_CALL, result: { temperature: 18, sky: 'sunny' }, error: null, duration_ms: 0 }],
        duration_ms: 0,
      },
      {
        index: 1,
        llm_call: {
          messages: [
            { role: 'system', content: SYSTEM },
            ASK,
            { role: 'assistant', content: firstResponse.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: WEATHER_CALL, content: '{"temperature":18,"sky":"sunny"}' }] },
          ],
          response_text: 'It is 18°C and sunny in Paris right now.',
          tool_calls: [],
          model: MODEL,
          provider: 'anthropic',
          tool_set: 'ts_760c49c5a713',
          token_usage: finalUsage,
          timestamp: 0,
          latency_ms: 0,
          stop_reason: 'end_turn',
        },
        tool_results: [],
        duration_ms: 0,
      },
    ])
    // What went over the wire is exactly what the agent sent.
    expect(server.requests.map((request) => (request.body as { messages: unknown }).messages)).toEqual(JSON.parse(JSON.stringify(sent)))
  })

  it('records parallel tool_use blocks of one response as the calls of one turn, each with its own result', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/parallel-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)

    const s = await session('parallel-tools', { save: false }, async () => {
      const messages: MessageParam[] = [ASK]
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
      messages.push({ role: 'assistant', content: first.content })
      const outputs: Record<string, string> = { get_weather: 'sunny, 18°C', get_time: '14:05' }
      messages.push({
        role: 'user',
        content: toolUses(first)
          .reverse()
          .map((call) => ({ type: 'tool_result' as const, tool_use_id: call.id, content: outputs[call.name]! })),
      })
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
    })

    const [turn] = stableTurns(s.trace)
    expect(turn!.llm_call.tool_calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Paris' }, call_id: 'toolu_01WeatherParis9f8e7d6c5b', timestamp: 0 },
      { name: 'get_time', arguments: { timezone: 'Europe/Paris' }, call_id: 'toolu_01TimeParis1a2b3c4d5e6f', timestamp: 0 },
    ])
    expect(turn!.tool_results).toEqual([
      { call_id: 'toolu_01TimeParis1a2b3c4d5e6f', result: '14:05', error: null, duration_ms: 0 },
      { call_id: 'toolu_01WeatherParis9f8e7d6c5b', result: 'sunny, 18°C', error: null, duration_ms: 0 },
    ])
    expect(s.trace.turns).toHaveLength(2)
  })

  it('records a tool_result as the value the tool returned: JSON objects parsed, other text ("42") kept, text blocks joined', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/parallel-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)

    const s = await session('tool-output-values', { save: false }, async () => {
      const messages: MessageParam[] = [ASK]
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
      messages.push({ role: 'assistant', content: first.content })
      const [weather, time] = toolUses(first)
      messages.push({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: weather!.id, content: '42' },
          {
            type: 'tool_result',
            tool_use_id: time!.id,
            content: [
              { type: 'text', text: '{"hour":' },
              { type: 'text', text: '14}' },
            ],
          },
        ],
      })
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
    })

    expect(stableTurns(s.trace)[0]!.tool_results).toEqual([
      { call_id: 'toolu_01WeatherParis9f8e7d6c5b', result: '42', error: null, duration_ms: 0 },
      { call_id: 'toolu_01TimeParis1a2b3c4d5e6f', result: { hour: 14 }, error: null, duration_ms: 0 },
    ])
  })
  it('records a tool_result with is_error as the error of its call, and reads content given as blocks', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/parallel-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)

    const s = await session('tool-errors', { save: false }, async () => {
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: [ASK] })
      const [weather, time] = toolUses(first)
      await client.messages.create({
        model: MODEL,
        max_tokens: 1024,
        messages: [
          ASK,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: weather!.id, is_error: true, content: [{ type: 'text', text: 'Weather service timed out after 5s' }] },
              { type: 'tool_result', tool_use_id: time!.id, is_error: true },
            ],
          },
        ],
      })
    })

    expect(stableTurns(s.trace)[0]!.tool_results).toEqual([
      { call_id: 'toolu_01WeatherParis9f8e7d6c5b', result: null, error: 'Weather service timed out after 5s', duration_ms: 0 },
      { call_id: 'toolu_01TimeParis1a2b3c4d5e6f', result: null, error: 'the tool reported an error (is_error: true)', duration_ms: 0 },
    ])
  })

  it('keeps a result traceTool recorded and does not record the same call again from the next requests', async () => {
    const final = { json: fixtureJson('anthropic/weather-final.json') }
    const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, final, final))
    const client = instrumentedClient(server)
    const getWeather = traceTool('get_weather', async (input: { city: string }) => ({ city: input.city, temperature: 18 }))
    const warnings = captureWarnings()

    const s = await session('trace-tool-once', { save: false }, async () => {
      const messages: MessageParam[] = [ASK]
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
      messages.push({ role: 'assistant', content: first.content })
      const [call] = toolUses(first)
      const output = await getWeather(call!.input as { city: string })
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: `It is ${output.temperature}°C` }] })
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages })
    })

    expect(stableTurns(s.trace)[0]!.tool_results).toEqual([{ call_id: WEATHER_CALL, result: { city: 'Paris', temperature: 18 }, error: null, duration_ms: 0 }])
    expect(await warnings.seen()).toEqual([])
  })

  it('leaves out tool results of calls this session did not record, without a warning', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/weather-final.json') }))
    const client = instrumentedClient(server)
    const warnings = captureWarnings()
    const earlier: MessageParam[] = [
      ASK,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_from_yesterday', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_from_yesterday', content: 'sunny' }] },
    ]

    const s = await session('resumed-conversation', { save: false }, () => client.messages.create({ model: MODEL, max_tokens: 1024, messages: earlier }))

    expect(s.trace.turns.map((turn) => turn.tool_results)).toEqual([[]])
    expect(s.trace.orphan_results).toBeUndefined()
    expect(await warnings.seen()).toEqual([])
  })

  it('keeps every usage field: cache creation and cache read tokens, server tool use, service tier', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/cached-prompt.json') }))
    const client = instrumentedClient(server)

    const s = await session('cached-prompt', { save: false }, () =>
      client.messages.create({
        model: MODEL,
        max_tokens: 1024,
        system: [{ type: 'text', text: 'The full contract text...', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'What does clause 4.2 say?' }],
      }),
    )

    expect(s.trace.turns[0]!.llm_call.token_usage).toEqual({
      input_tokens: 21,
      output_tokens: 19,
      cache_creation_input_tokens: 1856,
      cache_read_input_tokens: 12288,
      cache_creation: { ephemeral_5m_input_tokens: 1856, ephemeral_1h_input_tokens: 0 },
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
      inference_geo: 'not_available',
    })
    expect(s.trace.turns[0]!.llm_call.messages![0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'The full contract text...', cache_control: { type: 'ephemeral' } }],
    })
  })

  it('records server tools (web search) as calls answered in the same response, a search error as the error of its call', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/web-search.json') }))
    const client = instrumentedClient(server)
    const response = fixtureJson<{ content: Array<{ content?: unknown }> }>('anthropic/web-search.json')

    const s = await session('web-search', { save: false }, () =>
      client.messages.create({
        model: MODEL,
        max_tokens: 1024,
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }],
        messages: [{ role: 'user', content: 'Weather in Paris today and tomorrow?' }],
      }),
    )

    const [turn] = stableTurns(s.trace)
    expect(turn!.llm_call.tool_calls).toEqual([
      { name: 'web_search', arguments: { query: 'Paris weather today' }, call_id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE', timestamp: 0 },
      { name: 'web_search', arguments: { query: 'Paris weather tomorrow' }, call_id: 'srvtoolu_01Kq8sB2cT4dF6gH8jK0mN2p', timestamp: 0 },
    ])
    expect(turn!.tool_results).toEqual([
      { call_id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE', result: response.content[1]!.content, error: null, duration_ms: 0 },
      { call_id: 'srvtoolu_01Kq8sB2cT4dF6gH8jK0mN2p', result: null, error: 'web_search_tool_result_error: max_uses_exceeded', duration_ms: 0 },
    ])
    expect(turn!.llm_call.response_text).toBe('According to the forecast, Paris is sunny at 18°C today.')
    expect(turn!.llm_call.token_usage).toMatchObject({ server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 } })
  })
})
