// test/weather-agent.openai.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
]
const getWeather = ({ city }: { city: string }) => ({ city, temperature_c: 18, conditions: 'sunny' })

// The agent takes its client: the app passes instrumentOpenAI(new OpenAI()), a test a scripted one.
async function weatherAgent(openai: OpenAI, question: string): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })
    const message = completion.choices[0]!.message
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const result = getWeather(JSON.parse(call.function.arguments))
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
    }
  }
  throw new Error('no answer after 10 steps')
}

test('answers with the weather of the city asked', async ({ agentSession }) => {
  const fetch = scriptedFetch([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'It is 18°C and sunny in Paris.' }])
  const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch }))

  const s = await agentSession(() => weatherAgent(openai, 'What is the weather in Paris?'))

  expect(s.output).toBe('It is 18°C and sunny in Paris.')
  expect(s).toMatchFlow(['get_weather'])
  expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ city: 'Paris', temperature_c: 18, conditions: 'sunny' })
  expect(s.trace.turns[1]!.llm_call).toMatchObject({ provider: 'openai', model: 'gpt-4o', stop_reason: 'stop' })
})

test('records the Responses API too: instructions as the system message', async ({ agentSession }) => {
  const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch: scriptedFetch([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }]) }))

  const s = await agentSession(() =>
    openai.responses.create({
      model: 'gpt-4o',
      instructions: 'Answer in one sentence.',
      input: 'Weather in Oslo?',
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
    }),
  )

  expect(s).toHaveCalledToolWith('get_weather', { city: 'Oslo' })
  expect(s.trace.turns[0]!.llm_call.messages).toEqual([
    { role: 'system', content: 'Answer in one sentence.' },
    { role: 'user', content: 'Weather in Oslo?' },
  ])
})
