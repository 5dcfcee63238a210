import type Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { fixtureJson, fixtureText, inOrder } from '../helpers/canned-server.js'
import { instrumentedClient, MODEL, weatherTool } from '../adapters/anthropic/helpers.js'
import { recordThenReplay } from './record-replay.js'

const ASK: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }]

describe('record and replay with the Anthropic SDK (instrumentAnthropic), offline', () => {
  it('replays a tool loop with messages.create(): the same answer and turns, tool results included', async () => {
    const { replayed, recording } = await recordThenReplay(
      'anthropic-agent',
      inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
      async (server) => {
        const client = instrumentedClient(server)
        const messages: Anthropic.MessageParam[] = [...ASK]
        const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages, tools: [weatherTool] })
        const use = first.content.find((block) => block.type === 'tool_use')!
        messages.push({ role: 'assistant', content: first.content })
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C and sunny' }] })
        const final = await client.messages.create({ model: MODEL, max_tokens: 1024, messages, tools: [weatherTool] })
        return final.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
      },
    )
    expect(replayed.trace.turns[0]!.tool_results).toEqual([
      { call_id: expect.any(String), result: '18°C and sunny', error: null, duration_ms: expect.any(Number) },
    ])
    expect(recording()).toContain('"endpoint": "anthropic POST /v1/messages"')
  })

  it('replays a stream (stream: true) event for event, ending at message_stop', async () => {
    const { replayed } = await recordThenReplay('anthropic-stream', inOrder({ sse: fixtureText('anthropic/stream-tool-use.sse') }), async (server) => {
      const types: string[] = []
      const stream = await instrumentedClient(server).messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, tools: [weatherTool], stream: true })
      for await (const event of stream) types.push(event.type)
      return types
    })
    expect((replayed.output as string[]).at(-1)).toBe('message_stop')
    expect(replayed.trace.turns[0]!.llm_call.tool_calls.map((call) => call.name)).toEqual(['get_forecast'])
  })

  it('replays messages.stream(): its events and final message', async () => {
    const { replayed } = await recordThenReplay('anthropic-message-stream', inOrder({ sse: fixtureText('anthropic/stream-text.sse') }), async (server) => {
      const stream = instrumentedClient(server).messages.stream({ model: MODEL, max_tokens: 1024, messages: ASK })
      const texts: string[] = []
      stream.on('text', (text) => texts.push(text))
      const final = await stream.finalMessage()
      return { texts, usage: final.usage.output_tokens, stop: final.stop_reason }
    })
    expect((replayed.output as { texts: string[] }).texts.length).toBeGreaterThan(1)
  })
})
