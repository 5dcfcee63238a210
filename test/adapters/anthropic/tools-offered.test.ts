import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { toolSetId } from '../../helpers/tool-set-id.js'
import { MODEL, instrumentedClient, weatherTool } from './helpers.js'

const ASK = { role: 'user', content: 'What is the weather in Paris?' } as const

/** helpers.ts's weather tool as the trace keeps it. */
const WEATHER = {
  description: weatherTool.description,
  kind: 'function',
  name: 'get_weather',
  parameters: { properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'], type: 'object' },
}

describe('instrumentAnthropic(): the tools each request offers', () => {
  it('stores the client tools of two calls once, both calls naming the set', async () => {
    const server = await startCannedServer(
      inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
    )
    const client = instrumentedClient(server)
    const s = await session('anthropic-tools', { save: false }, async () => {
      // A new array each time, as agents build their requests: the same tools are still one set.
      await client.messages.create({ model: MODEL, max_tokens: 1024, tools: [weatherTool], messages: [ASK] })
      await client.messages.create({ model: MODEL, max_tokens: 1024, tools: [{ ...weatherTool }], messages: [ASK] })
    })

    const id = toolSetId([WEATHER])
    expect(s.trace.tool_sets).toEqual({ [id]: [WEATHER] })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([id, id])
  })

  it('records server tools (web search, code execution) as provider tools by their name, beside the client tools', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/web-search.json') }))
    const client = instrumentedClient(server)
    const s = await session('anthropic-server-tools', { save: false }, () =>
      client.messages.create({
        model: MODEL,
        max_tokens: 1024,
        messages: [ASK],
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }, { type: 'code_execution_20250825', name: 'code_execution' }, weatherTool],
      }),
    )

    const tools = [
      WEATHER,
      { description: null, kind: 'provider', name: 'code_execution', parameters: null },
      { description: null, kind: 'provider', name: 'web_search', parameters: null },
    ]
    const id = toolSetId(tools)
    expect(s.trace.tool_sets).toEqual({ [id]: tools })
    expect(s.trace.turns[0]!.llm_call.tool_set).toBe(id)
  })
})
