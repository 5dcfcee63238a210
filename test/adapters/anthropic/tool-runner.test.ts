import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { MODEL, instrumentedClient, stableTurns } from './helpers.js'

describe('instrumentAnthropic(): the beta tool runner', () => {
  it.each([
    { over: 'the whole history', thread: false as const, secondRequest: ['user', 'assistant', 'user'] },
    { over: 'a message thread', thread: undefined, secondRequest: ['user'] },
  ])('records each model call as a turn and each tool it ran as the result of its call, sending $over', async ({ thread, secondRequest }) => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)
    const getWeather = betaTool({
      name: 'get_weather',
      description: 'Current weather of a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
      run: (input) => JSON.stringify({ city: input.city, temperature: 18 }),
    })

    const s = await session('tool-runner', { save: false }, async () => {
      const runner = client.beta.messages.toolRunner({
        model: MODEL,
        max_tokens: 1024,
        tools: [getWeather],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        ...(thread === undefined ? {} : { thread }),
      })
      return (await runner.runUntilDone()).stop_reason
    })

    expect(s.output).toBe('end_turn')
    const turns = stableTurns(s.trace)
    expect(turns.map((turn) => [turn.llm_call.tool_calls.map((call) => call.name), turn.tool_results])).toEqual([
      [['get_weather'], [{ call_id: 'toolu_01A09q90qw90lq917835lq9', result: { city: 'Paris', temperature: 18 }, error: null, duration_ms: 0 }]],
      [[], []],
    ])
    expect(turns[1]!.llm_call.messages!.map((message) => message.role)).toEqual(secondRequest)
  })
})
