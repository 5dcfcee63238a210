/**
 * The agent the adapter tests record: a plain tool loop written the way the
 * OpenAI docs show it, once per API. It runs the tools itself and sends
 * their results back in the next request.
 */
import type OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses'

export const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
}

export const chatTools: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', description: 'Current weather of a city.', parameters: weatherParameters, strict: true } },
]

export const responsesTools: FunctionTool[] = [
  { type: 'function', name: 'get_weather', description: 'Current weather of a city.', parameters: weatherParameters, strict: true },
]

export function getWeather({ city }: { city: string }): { city: string; temperature_c: number; conditions: string } {
  return { city, temperature_c: city === 'Rome' ? 24 : 18, conditions: 'sunny' }
}

const MAX_STEPS = 5

export async function runChatAgent(client: OpenAI, question: string): Promise<string> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a weather assistant.' },
    { role: 'user', content: question },
  ]
  for (let step = 0; step < MAX_STEPS; step++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: chatTools })
    const message = completion.choices[0]!.message
    messages.push(message)
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const result = getWeather(JSON.parse(call.function.arguments) as { city: string })
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
    }
  }
  throw new Error(`the agent did not answer in ${MAX_STEPS} steps`)
}

export async function runResponsesAgent(client: OpenAI, question: string): Promise<string> {
  const input: ResponseInputItem[] = [{ role: 'user', content: question }]
  for (let step = 0; step < MAX_STEPS; step++) {
    const response = await client.responses.create({ model: 'gpt-4.1', instructions: 'You are a weather assistant.', input, tools: responsesTools })
    input.push(...(response.output as ResponseInputItem[]))
    const calls = response.output.filter((item) => item.type === 'function_call')
    if (calls.length === 0) return response.output_text
    for (const call of calls) {
      const result = getWeather(JSON.parse(call.arguments) as { city: string })
      input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(result) })
    }
  }
  throw new Error(`the agent did not answer in ${MAX_STEPS} steps`)
}
