import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { reagentMiddleware } from '../../../src/entries/ai-sdk.js'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { toolSetId } from '../../helpers/tool-set-id.js'

/** The tools as the trace keeps them: the JSON Schema the SDK made of each `inputSchema`, and the provider's web search by its name. */
const TOOLS = [
  {
    description: 'Current weather of a city.',
    kind: 'function',
    name: 'get_weather',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      additionalProperties: false,
      properties: { city: { description: 'The city, in English.', type: 'string' } },
      required: ['city'],
      type: 'object',
    },
  },
  { description: null, kind: 'function', name: 'list_cities', parameters: { properties: {}, type: 'object' } },
  { description: null, kind: 'provider', name: 'web_search', parameters: null },
]

describe('reagentMiddleware(): the tools each model call offers', () => {
  it('stores the tools of a two-step generateText once: function tools as JSON Schema, provider-defined tools as provider tools', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('openai/responses/function-call.json') }, { json: fixtureJson('openai/responses/final-answer.json') }),
    )
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' })
    const model = wrapLanguageModel({ model: openai.responses('gpt-4.1'), middleware: reagentMiddleware() })

    const s = await session('ai-sdk-tools', { save: false }, async () => {
      const result = await generateText({
        model,
        prompt: 'What is the weather in Paris?',
        stopWhen: stepCountIs(3),
        tools: {
          web_search: openai.tools.webSearch({}),
          get_weather: tool({
            description: 'Current weather of a city.',
            inputSchema: z.object({ city: z.string().describe('The city, in English.') }),
            execute: async ({ city }) => ({ city, temperature_c: 18, conditions: 'sunny' }),
          }),
          list_cities: tool({ inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }), execute: async () => ['Paris'] }),
        },
      })
      return result.text
    })

    const id = toolSetId(TOOLS)
    expect(s.trace.tool_sets).toEqual({ [id]: TOOLS })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([id, id])
  })
})
