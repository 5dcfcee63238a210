// src/weather-agent.ts
import OpenAI from 'openai'
import { instrumentOpenAI } from 'reagent-flow/openai'

export interface WeatherTools {
  get_weather: (args: { city: string }) => Promise<unknown>
}

const TOOLS: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather of a city now',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
]

// In production: weatherAgent(question, { tools: { get_weather: fetchWeather } }) with the default fetch.
export async function weatherAgent(question: string, { fetch, tools }: { fetch?: typeof globalThis.fetch; tools: WeatherTools }): Promise<string> {
  const openai = instrumentOpenAI(new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-test', ...(fetch === undefined ? {} : { fetch }) }))
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You answer questions about the weather. Look it up before you answer.' },
    { role: 'user', content: question },
  ]
  for (let step = 0; step < 5; step++) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: TOOLS })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const output = await tools.get_weather(JSON.parse(call.function.arguments))
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) })
    }
  }
  throw new Error('no answer after 5 steps')
}
