// test/weather-agent.anthropic.test.ts
import Anthropic from '@anthropic-ai/sdk'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentAnthropic } from 'reagent-flow/anthropic'
import { test } from 'reagent-flow/vitest'

const getWeather = async ({ city }: { city: string }) => ({ city, temperature: 18, sky: 'sunny' }) // your tool

const tools: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Current weather of a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
  },
]

// The agent takes its client: the app passes instrumentAnthropic(new Anthropic()), a test a scripted one.
async function weatherAgent(client: Anthropic, question: string): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
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
  throw new Error('no answer after 10 steps')
}

test('answers with the weather of the city asked', async ({ agentSession }) => {
  const fetch = scriptedFetch([
    { text: "I'll check the current weather in Paris.", toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }] },
    { text: 'It is 18°C and sunny in Paris right now.' },
  ])
  const client = instrumentAnthropic(new Anthropic({ apiKey: 'sk-ant-test', fetch }))

  const s = await agentSession(() => weatherAgent(client, 'What is the weather in Paris?'))

  expect(s.output).toBe('It is 18°C and sunny in Paris right now.')
  expect(s).toHaveCalledToolWith('get_weather', { city: 'Paris', unit: 'celsius' })
  expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ city: 'Paris', temperature: 18, sky: 'sunny' })
  expect(s.trace.turns.map((turn) => turn.llm_call.stop_reason)).toEqual(['tool_use', 'end_turn'])
  s.assertMaxTurns(2)
})
