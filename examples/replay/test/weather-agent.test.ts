// test/weather-agent.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { traceTool } from 'reagent-flow'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

// A real client: OPENAI_API_KEY (and OPENAI_BASE_URL, if you set it) come from the environment.
const openai = instrumentOpenAI(new OpenAI())

const getWeather = traceTool('get_weather', async ({ city }: { city: string }) => ({ city, temperature_c: 18, conditions: 'sunny' }))

const tools: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
]

async function weatherAgent(question: string): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 5; step++) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const weather = await getWeather(JSON.parse(call.function.arguments) as { city: string })
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(weather) })
    }
  }
  throw new Error('no answer after 5 steps')
}

// Every session of this file: answer from the recording, call the model only for what is not in it.
test.override({ reagentOptions: { replay: 'auto' } })

test('answers with the weather of the city asked', async ({ agentSession }) => {
  const s = await agentSession(() => weatherAgent('What is the weather in Paris?'))
  expect(s).toHaveCalledToolWith('get_weather', { city: 'Paris' })
  expect(s.output).toContain('18°C')
})
