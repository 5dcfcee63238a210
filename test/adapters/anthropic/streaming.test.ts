import Anthropic from '@anthropic-ai/sdk'
import { Stream } from '@anthropic-ai/sdk/core/streaming'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureText, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { MODEL, instrumentedClient, plainClient, stableTurns } from './helpers.js'

const ASK = [{ role: 'user' as const, content: 'Forecast for Paris, 3 days, in celsius?' }]
const FORECAST_CALL = 'toolu_01T1x1fJ34qAmk2tNTrN7Up6'
const streamedToolUse = { sse: fixtureText('anthropic/stream-tool-use.sse') }

async function drain(stream: AsyncIterable<Anthropic.RawMessageStreamEvent>): Promise<Anthropic.RawMessageStreamEvent[]> {
  const events: Anthropic.RawMessageStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

describe('instrumentAnthropic(): streamed responses', () => {
  it('records a streamed tool call whose input JSON arrives across many deltas, once the stream has ended', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse))
    const client = instrumentedClient(server)

    const s = await session('streamed-tool-call', { save: false }, async (s) => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      expect(s.trace.turns).toEqual([])
      await drain(stream)
    })

    expect(stableTurns(s.trace)).toEqual([
      {
        index: 0,
        llm_call: {
          messages: ASK,
          response_text: 'Let me check the forecast.',
          tool_calls: [{ name: 'get_forecast', arguments: { city: 'Paris', unit: 'celsius', days: 3 }, call_id: FORECAST_CALL, timestamp: 0 }],
          model: MODEL,
          provider: 'anthropic',
          token_usage: {
            input_tokens: 472,
            output_tokens: 89,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 256,
            cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
            service_tier: 'standard',
          },
          timestamp: 0,
          latency_ms: 0,
          stop_reason: 'tool_use',
        },
        tool_results: [],
        duration_ms: 0,
      },
    ])
  })

  it('hands the agent the SDK Stream itself and the very events an uninstrumented client yields', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse, streamedToolUse))
    const expected = await drain(await plainClient(server).messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true }))
    const client = instrumentedClient(server)

    const s = await session('stream-unchanged', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      expect(stream).toBeInstanceOf(Stream)
      expect(stream.controller).toBeInstanceOf(AbortController)
      return drain(stream)
    })

    expect(s.output).toEqual(expected)
    expect(expected.filter((event) => event.type === 'content_block_delta')).toHaveLength(13)
  })

  it('records what arrived when the agent breaks out of the stream early, and says the response is incomplete', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse))
    const client = instrumentedClient(server)

    const s = await session('stream-break', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' && event.delta.partial_json !== '') break
      }
    })

    expect(stableTurns(s.trace)[0]!.llm_call).toEqual({
      messages: ASK,
      response_text: 'Let me check the forecast.',
      tool_calls: [{ name: 'get_forecast', arguments: { _raw_arguments: '{"ci' }, call_id: FORECAST_CALL, timestamp: 0 }],
      model: MODEL,
      provider: 'anthropic',
      token_usage: {
        input_tokens: 472,
        output_tokens: 2,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 256,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        service_tier: 'standard',
      },
      timestamp: 0,
      latency_ms: 0,
      error: { name: 'Error', message: 'the stream was closed by its reader before message_stop: the response is incomplete' },
    })
  })

  it('records what the agent read when it aborts the stream through its controller', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse))
    const client = instrumentedClient(server)
    let text = ''
    const tools: string[] = []

    const s = await session('stream-abort', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      for await (const event of stream) {
        // Events already received before the abort are still handed out.
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') tools.push(event.content_block.name)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          text += event.delta.text
          stream.controller.abort()
        }
      }
    })

    expect(text.startsWith('Let me')).toBe(true)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: text,
      error: { name: 'Error', message: 'the stream ended before message_stop: the response is incomplete (was the request aborted?)' },
    })
    expect(s.trace.turns[0]!.llm_call.tool_calls.map((call) => call.name)).toEqual(tools)
  })

  it("records what arrived when the agent closes the stream's iterator with return()", async () => {
    const server = await startCannedServer(inOrder(streamedToolUse))
    const client = instrumentedClient(server)

    const s = await session('stream-return', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      const iterator = stream[Symbol.asyncIterator]()
      await iterator.next()
      await iterator.return?.()
    })

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: null,
      model: MODEL,
      provider: 'anthropic',
      error: { name: 'Error', message: 'the stream was closed by its reader before message_stop: the response is incomplete' },
    })
  })

  it('records a stream the API breaks off with an error event, with the text so far; the agent gets the error unchanged', async () => {
    const server = await startCannedServer(inOrder({ sse: fixtureText('anthropic/stream-overloaded.sse') }))
    const client = instrumentedClient(server)
    let caught: unknown

    const s = await session('stream-error', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      await drain(stream).catch((error: unknown) => (caught = error))
    })

    expect(caught).toBeInstanceOf(Anthropic.APIError)
    const { message, stack } = caught as Error
    expect(message).toBe('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: 'The answer is', error: { name: 'APIError', message, stack } })
  })

  it('records a teed stream once, and a stream read through toReadableStream()', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse, streamedToolUse))
    const client = instrumentedClient(server)

    const s = await session('stream-tee', { save: false }, async () => {
      const stream = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
      const [left, right] = stream.tee()
      const [fromLeft, fromRight] = await Promise.all([drain(left), drain(right)])
      expect(fromLeft).toEqual(fromRight)

      const readable = (await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })).toReadableStream()
      const reader = readable.getReader()
      let bytes = 0
      for (let chunk = await reader.read(); chunk.done !== true; chunk = await reader.read()) bytes += (chunk.value as Uint8Array).byteLength
      expect(bytes).toBeGreaterThan(0)
    })

    expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.arguments))).toEqual([
      [{ city: 'Paris', unit: 'celsius', days: 3 }],
      [{ city: 'Paris', unit: 'celsius', days: 3 }],
    ])
  })

  it('records messages.stream() once, while text events, finalMessage() and finalText() keep working', async () => {
    const server = await startCannedServer(inOrder({ sse: fixtureText('anthropic/stream-text.sse') }))
    const client = instrumentedClient(server)
    const texts: string[] = []

    const s = await session('message-stream', { save: false }, async () => {
      const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] })
      stream.on('text', (delta) => texts.push(delta))
      const message = await stream.finalMessage()
      return { message, text: await stream.finalText() }
    })

    expect(texts).toEqual(['Hello', '! How can', ' I help', ' you today?'])
    expect(s.output!.text).toBe('Hello! How can I help you today?')
    expect(s.output!.message.usage).toMatchObject({ input_tokens: 25, output_tokens: 12 })
    expect(server.requests).toHaveLength(1)
    expect(stableTurns(s.trace)).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [{ role: 'user', content: 'Hello' }],
          response_text: 'Hello! How can I help you today?',
          tool_calls: [],
          model: MODEL,
          provider: 'anthropic',
          token_usage: { input_tokens: 25, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' },
          timestamp: 0,
          latency_ms: 0,
          stop_reason: 'end_turn',
        },
        tool_results: [],
        duration_ms: 0,
      },
    ])
  })

  it('records a stream still unread when the session closes, saying why it is incomplete', async () => {
    const server = await startCannedServer(inOrder(streamedToolUse))
    const client = instrumentedClient(server)

    const s = await session('stream-unread', { save: false }, async () => {
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })
    })

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      messages: ASK,
      response_text: null,
      tool_calls: [],
      model: MODEL,
      error: {
        name: 'Error',
        message: 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
      },
    })
  })
})
