import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { toolSetId } from '../../helpers/tool-set-id.js'
import { json, openaiClient, sse } from './helpers.js'
import { runChatAgent, runResponsesAgent } from './weather-agent.js'

/** The weather agent's one tool, as the trace keeps it (keys sorted, the schema's too). */
const GET_WEATHER = {
  description: 'Current weather of a city.',
  kind: 'function',
  name: 'get_weather',
  parameters: { additionalProperties: false, properties: { city: { type: 'string' } }, required: ['city'], type: 'object' },
}

describe('instrumentOpenAI: the tools each request offers', () => {
  it('stores the tools of a chat completions tool loop once, both calls naming the set', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const s = await session('chat-tools', { save: false }, () => runChatAgent(openaiClient(server), 'What is the weather in Paris?'))

    const id = toolSetId([GET_WEATHER])
    expect(s.trace.tool_sets).toEqual({ [id]: [GET_WEATHER] })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([id, id])
  })

  it('records chat function and custom tools, sorted by name with their keys sorted, and no set for a call without tools', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const s = await session('chat-custom', { save: false }, async () => {
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Run it.' }],
        tools: [
          { type: 'custom', custom: { name: 'run_sql', description: 'Runs one SQL query.', format: { type: 'text' } } },
          { type: 'custom', custom: { name: 'echo' } },
          { type: 'function', function: { parameters: { type: 'object', properties: { z: { type: 'number' }, a: { type: 'string' } } }, name: 'add' } },
        ],
      })
      await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi.' }] })
    })

    const tools = [
      { description: null, kind: 'function', name: 'add', parameters: { properties: { a: { type: 'string' }, z: { type: 'number' } }, type: 'object' } },
      { description: null, kind: 'function', name: 'echo', parameters: null },
      { description: 'Runs one SQL query.', kind: 'function', name: 'run_sql', parameters: { format: { type: 'text' } } },
    ]
    const id = toolSetId(tools)
    expect(s.trace.tool_sets).toEqual({ [id]: tools })
    expect(JSON.stringify(s.trace.tool_sets![id]![0]!.parameters)).toBe('{"properties":{"a":{"type":"string"},"z":{"type":"number"}},"type":"object"}')
    expect(s.trace.turns[0]!.llm_call.tool_set).toBe(id)
    expect('tool_set' in s.trace.turns[1]!.llm_call).toBe(false)
  })

  it('stores the function tools of a Responses API tool loop once', async () => {
    const server = await startCannedServer(inOrder(json('responses/function-call.json'), json('responses/final-answer.json')))
    const s = await session('responses-tools', { save: false }, () => runResponsesAgent(openaiClient(server), 'What is the weather in Paris?'))

    const id = toolSetId([GET_WEATHER])
    expect(s.trace.tool_sets).toEqual({ [id]: [GET_WEATHER] })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([id, id])
  })

  it('records hosted Responses tools: an MCP server by its label, web search and file search as provider tools', async () => {
    const server = await startCannedServer(inOrder(sse('responses/final-answer.sse')))
    const s = await session('responses-hosted', { save: false }, async () => {
      const stream = await openaiClient(server).responses.create({
        model: 'gpt-4.1',
        input: 'Weather in Paris?',
        stream: true,
        tools: [
          { type: 'web_search' },
          {
            type: 'mcp',
            server_label: 'deepwiki',
            server_url: 'https://mcp.deepwiki.com/mcp',
            server_description: 'Docs of public repositories.',
            require_approval: 'never',
          },
          { type: 'file_search', vector_store_ids: ['vs_1'] },
          { type: 'function', name: 'get_weather', description: 'Current weather of a city.', parameters: { type: 'object', properties: {} }, strict: false },
        ],
      })
      for await (const _event of stream) {
        // read to the end
      }
    })

    const tools = [
      { description: 'Current weather of a city.', kind: 'function', name: 'get_weather', parameters: { properties: {}, type: 'object' } },
      { description: 'Docs of public repositories.', kind: 'mcp', name: 'deepwiki', parameters: null, server: 'deepwiki' },
      { description: null, kind: 'provider', name: 'file_search', parameters: null },
      { description: null, kind: 'provider', name: 'web_search', parameters: null },
    ]
    const id = toolSetId(tools)
    expect(s.trace.tool_sets).toEqual({ [id]: tools })
    expect(s.trace.turns[0]!.llm_call.tool_set).toBe(id)
  })
})
