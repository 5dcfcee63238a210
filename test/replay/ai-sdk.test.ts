import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { fixtureJson, fixtureText, inOrder, type CannedServer } from '../helpers/canned-server.js'
import { getWeather } from '../adapters/openai/weather-agent.js'
import { recordThenReplay } from './record-replay.js'

/** The AI SDK's own OpenAI provider (chat completions) against the canned server, through the middleware. */
function model(server: CannedServer) {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' })
  return wrapLanguageModel({ model: openai.chat('gpt-4o'), middleware: reagentMiddleware() })
}

const tools = instrumentTools({
  get_weather: tool({
    description: 'Current weather of a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => getWeather({ city }),
  }),
})

describe('record and replay with the AI SDK (reagentMiddleware), offline', () => {
  it('replays generateText', async () => {
    const { replayed, recording } = await recordThenReplay('ai-generate', inOrder({ json: fixtureJson('openai/chat/final-answer.json') }), async (server) => {
      const result = await generateText({ model: model(server), prompt: 'Weather in Paris?' })
      return { text: result.text, usage: result.usage.inputTokens, isDate: result.response.timestamp instanceof Date }
    })
    // The response's time comes back a Date (the recording keeps the epoch: docs/decisions/044-steady-recordings.md).
    expect(replayed.output).toEqual({ text: 'It is 18°C and sunny in Paris.', usage: 121, isDate: true })
    expect(recording()).toContain('"endpoint": "ai-sdk openai.chat doGenerate"')
  })

  it('replays streamText part for part, with the same usage and finish', async () => {
    const { replayed } = await recordThenReplay('ai-stream', inOrder({ sse: fixtureText('openai/chat/final-answer.sse') }), async (server) => {
      const result = streamText({ model: model(server), prompt: 'Weather in Paris?' })
      const deltas: string[] = []
      for await (const delta of result.textStream) deltas.push(delta)
      return { deltas, finish: await result.finishReason }
    })
    expect(replayed.output).toEqual({ deltas: ['It is', ' 18°C', ' and sunny', ' in Paris', ' and 24°C', ' in Rome.'], finish: 'stop' })
  })

  it('replays a multi-step tool loop (stopWhen), running the tool as the model asks', async () => {
    const { replayed } = await recordThenReplay(
      'ai-multi-step',
      inOrder({ json: fixtureJson('openai/chat/tool-call.json') }, { json: fixtureJson('openai/chat/final-answer.json') }),
      async (server) => {
        const result = await generateText({ model: model(server), tools, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' })
        return { text: result.text, steps: result.steps.length }
      },
    )
    expect(replayed.output).toEqual({ text: 'It is 18°C and sunny in Paris.', steps: 2 })
    expect(replayed.trace.turns[0]!.tool_results).toEqual([
      { call_id: expect.stringMatching(/^call_\d{6}_1$/), result: getWeather({ city: 'Paris' }), error: null, duration_ms: expect.any(Number) },
    ])
  })
})
