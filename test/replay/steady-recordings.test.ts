import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { instrumentedClient, MODEL, weatherTool } from '../adapters/anthropic/helpers.js'
import { json, openaiClient, sse } from '../adapters/openai/helpers.js'
import { runChatAgent, runResponsesAgent } from '../adapters/openai/weather-agent.js'
import { expectSameOutcome, freshAnswers, recordTwice } from './steady.js'

const ASK: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }]

describe('re-recording unchanged behaviour changes no byte of the recording', () => {
  it('OpenAI chat completions: a tool loop, its call id sent back, written with steady ids, times and fingerprint', async () => {
    const twice = await recordTwice('chat', freshAnswers(json('chat/tool-call.json'), json('chat/final-answer.json')), (server) =>
      runChatAgent(openaiClient(server), 'What is the weather in Paris?'),
    )
    expect(twice.second).toBe(twice.first)
    expectSameOutcome(twice)
    expect(twice.first).toMatch(/"id": "chatcmpl-\d{6}-1"/)
    expect(twice.first).toMatch(/"id": "call_\d{6}_1"/)
    expect(twice.first).toMatch(/"id": "chatcmpl-\d{6}-2"/)
    expect(twice.first).toContain('"created": 0')
    expect(twice.first).toContain('"system_fingerprint": "fp_0"')
  })

  it('OpenAI chat completions streamed: every chunk of the stream carries the one steady id', async () => {
    const twice = await recordTwice('chat-stream', freshAnswers(sse('chat/tool-call.sse')), async (server) => {
      const stream = await openaiClient(server).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      const ids = new Set<string>()
      for await (const chunk of stream) ids.add(chunk.id)
      return [...ids]
    })
    expect(twice.second).toBe(twice.first)
    expect(twice.replayed.output).toEqual([expect.stringMatching(/^chatcmpl-\d{6}-1$/)])
    expect(twice.first).not.toMatch(/"created":\s*[1-9]/)
  })

  it('OpenAI Responses: a tool loop, and a streamed response whose events share the response and item ids', async () => {
    const loop = await recordTwice('responses', freshAnswers(json('responses/function-call.json'), json('responses/final-answer.json')), (server) =>
      runResponsesAgent(openaiClient(server), 'What is the weather in Paris?'),
    )
    expect(loop.second).toBe(loop.first)
    expectSameOutcome(loop)
    expect(loop.first).toMatch(/"id": "resp_\d{6}_1"/)
    expect(loop.first).toMatch(/"id": "fc_\d{6}_1"/)
    expect(loop.first).toMatch(/"call_id": "call_\d{6}_1"/)
    expect(loop.first).toContain('"created_at": 0')

    const streamed = await recordTwice('responses-stream', freshAnswers(sse('responses/function-call.sse')), async (server) => {
      const stream = await openaiClient(server).responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?', stream: true })
      const seen: string[] = []
      for await (const event of stream) {
        if ('response' in event) seen.push(`${event.sequence_number} ${event.response.id}`)
        if ('item_id' in event) seen.push(`${event.sequence_number} ${event.item_id}`)
      }
      return seen
    })
    expect(streamed.second).toBe(streamed.first)
    expectSameOutcome(streamed, { sameOutput: false })
    const ids = [...new Set((streamed.replayed.output as string[]).map((seen) => seen.split(' ')[1]))].sort()
    expect(ids).toEqual([expect.stringMatching(/^fc_\d{6}_1$/), expect.stringMatching(/^resp_\d{6}_1$/)])
  })

  it('Anthropic: a tool loop (its tool_use id sent back) and a streamed answer', async () => {
    const loop = await recordTwice(
      'anthropic',
      freshAnswers({ json: fixtureJson('anthropic/weather-tool-use.json') }, { json: fixtureJson('anthropic/weather-final.json') }),
      async (server) => {
        const client = instrumentedClient(server)
        const messages: Anthropic.MessageParam[] = [...ASK]
        const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages, tools: [weatherTool] })
        const use = first.content.find((block) => block.type === 'tool_use')!
        messages.push({ role: 'assistant', content: first.content })
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C and sunny' }] })
        const final = await client.messages.create({ model: MODEL, max_tokens: 1024, messages, tools: [weatherTool] })
        return { use: use.id, ids: [first.id, final.id] }
      },
    )
    expect(loop.second).toBe(loop.first)
    expectSameOutcome(loop, { sameOutput: false })
    expect(loop.replayed.output).toEqual({
      use: expect.stringMatching(/^toolu_\d{6}_1$/),
      ids: [expect.stringMatching(/^msg_\d{6}_1$/), expect.stringMatching(/^msg_\d{6}_2$/)],
    })

    const streamed = await recordTwice('anthropic-stream', freshAnswers({ sse: fixtureText('anthropic/stream-tool-use.sse') }), async (server) => {
      const stream = instrumentedClient(server).messages.stream({ model: MODEL, max_tokens: 1024, messages: ASK, tools: [weatherTool] })
      const final = await stream.finalMessage()
      return { id: final.id, blocks: final.content.map((block) => (block.type === 'tool_use' ? block.id : block.type)) }
    })
    expect(streamed.second).toBe(streamed.first)
    expectSameOutcome(streamed, { sameOutput: false })
    expect(streamed.replayed.output).toEqual({ id: expect.stringMatching(/^msg_\d{6}_1$/), blocks: ['text', expect.stringMatching(/^toolu_\d{6}_1$/)] })
  })

  it('replays a recording written before, with the raw ids of the provider, giving the agent those ids', async () => {
    const dir = tempDir('reagent-steady-')
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    await session('raw', { traceDir: dir, replay: 'record' }, () => runChatAgent(openaiClient(server), 'What is the weather in Paris?'))
    await server.close()
    const file = join(dir, 'raw.recording.json')
    // The recording as an earlier version wrote it: the provider's ids as they came.
    const raw = readFileSync(file, 'utf8')
      .replace(/"call_\d{6}_1"/g, '"call_Wk3nq1UdFpYH3gL7f9rEoZ2c"')
      .replace(/"chatcmpl-\d{6}-(\d)"/g, '"chatcmpl-Raw$1"')
    writeFileSync(file, raw)
    const replayed = await session('raw', { traceDir: dir, replay: 'replay' }, () => runChatAgent(openaiClient(server), 'What is the weather in Paris?'))
    expect(replayed.status).toBe('completed')
    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
    expect(replayed.trace.turns[0]!.llm_call.tool_calls[0]!.call_id).toBe('call_Wk3nq1UdFpYH3gL7f9rEoZ2c')
    expect(readFileSync(file, 'utf8')).toBe(raw)
  })
})
