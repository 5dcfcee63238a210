/**
 * The agent loop of the README's "Anthropic" section, run against canned
 * responses: what the README shows is what this records.
 */
import type Anthropic from '@anthropic-ai/sdk'
import { expect, it } from 'vitest'
import { loadTrace, session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { instrumentedClient, stableTurns } from './helpers.js'

const tools: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Current weather of a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
  },
]

async function getWeather(input: { city: string; unit?: string }): Promise<{ city: string; temperature: number; sky: string }> {
  return { city: input.city, temperature: 18, sky: 'sunny' }
}

async function weatherAgent(client: Anthropic, question: string): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }]
  for (;;) {
    const response = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages })
    messages.push({ role: 'assistant', content: response.content })
    if (response.stop_reason !== 'tool_use') {
      return response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    }
    const results: Anthropic.ToolResultBlockParam[] = []
    for (const block of response.content) {
      if (block.type !== 'tool_use') continue
      const output = await getWeather(block.input as { city: string })
      results.push({ type: 'tool_result', tool_use_id: block.id, content: JSON.stringify(output) })
    }
    messages.push({ role: 'user', content: results })
  }
}

it('records the README agent loop as two turns with the weather result attached to its call', async () => {
  const server = await startCannedServer(
    inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
  )
  const client = instrumentedClient(server)
  const traceDir = tempDir()

  const s = await session('weather-agent', { traceDir }, () => weatherAgent(client, 'What is the weather in Paris?'))

  expect(s.output).toBe('It is 18°C and sunny in Paris right now.')
  const written = loadTrace(s.path!)
  expect(stableTurns(written).map(({ llm_call, tool_results }) => ({ calls: llm_call.tool_calls, text: llm_call.response_text, tool_results }))).toEqual([
    {
      calls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' }, call_id: 'toolu_01A09q90qw90lq917835lq9', timestamp: 0 }],
      text: "I'll check the current weather in Paris.",
      tool_results: [{ call_id: 'toolu_01A09q90qw90lq917835lq9', result: { city: 'Paris', temperature: 18, sky: 'sunny' }, error: null, duration_ms: 0 }],
    },
    { calls: [], text: 'It is 18°C and sunny in Paris right now.', tool_results: [] },
  ])
})
