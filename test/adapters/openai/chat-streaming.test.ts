import { APIError } from 'openai'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureText, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { chatUsage, openaiClient, sse, toolCall, WEATHER_TOOL_SET } from './helpers.js'
import { chatTools } from './weather-agent.js'

const QUESTION = { role: 'user' as const, content: 'Paris or Rome?' }

/** The events of an SSE fixture, as the SDK yields them. */
function fixtureEvents(path: string): unknown[] {
  return fixtureText(`openai/${path}`)
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown)
}

/** The call recorded from a tool-call stream that stopped after `{"city` (chat/tool-call.sse read for four chunks, chat/stream-error.sse), with `error`. */
function cutAfterCity(error: Record<string, unknown>): unknown {
  return {
    messages: [QUESTION],
    response_text: null,
    tool_calls: [toolCall('get_weather', { _raw_arguments: '{"city' }, 'call_Str3amP4r1sXq7Lm2Vb9Nk')],
    model: 'gpt-4o-2024-08-06',
    provider: 'openai',
    tool_set: WEATHER_TOOL_SET,
    token_usage: null,
    timestamp: expect.any(Number),
    latency_ms: expect.any(Number),
    error,
  }
}

describe('instrumentOpenAI: chat.completions.create with stream: true', () => {
  it('records a tool call split across many chunks as one turn when the stream ends, with usage as asked', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)
    const seen: unknown[] = []

    const s = await session('chat-stream', { save: false }, async (s) => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [QUESTION],
        tools: chatTools,
        stream: true,
        stream_options: { include_usage: true },
      })
      for await (const chunk of stream) {
        seen.push(chunk)
        expect(s.trace.turns).toHaveLength(0)
      }
    })

    expect(seen).toEqual(fixtureEvents('chat/tool-call.sse'))
    expect(s.trace.turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [QUESTION],
          response_text: null,
          tool_calls: [
            toolCall('get_weather', { city: 'Paris' }, 'call_Str3amP4r1sXq7Lm2Vb9Nk'),
            toolCall('get_weather', { city: 'Rome' }, 'call_Str3amR0m3Wz5Hj8Gt1Qc'),
          ],
          model: 'gpt-4o-2024-08-06',
          provider: 'openai',
          tool_set: WEATHER_TOOL_SET,
          token_usage: chatUsage(88, 46),
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          stop_reason: 'tool_calls',
        },
        tool_results: [],
        duration_ms: expect.any(Number),
      },
    ])
  })

  it('records streamed text, and no token usage when the request did not ask for it', async () => {
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('chat-stream-text', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true })
      let text = ''
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
      return text
    })

    expect(s.output).toBe('It is 18°C and sunny in Paris and 24°C in Rome.')
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'It is 18°C and sunny in Paris and 24°C in Rome.',
      tool_calls: [],
      token_usage: null,
      stop_reason: 'stop',
    })
  })

  it('records what arrived when the consumer breaks out early, and the SDK still aborts the request', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)
    let signal: AbortSignal | undefined

    const s = await session('chat-stream-break', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, stream: true })
      signal = stream.controller.signal
      let chunks = 0
      for await (const _chunk of stream) if (++chunks === 4) break
    })

    expect(signal?.aborted).toBe(true)
    expect(s.trace.turns[0]!.llm_call).toEqual(
      cutAfterCity({ name: 'Error', message: 'the stream was closed by its reader before [DONE]: the response is incomplete' }),
    )
  })

  it('records what arrived when the consumer aborts the stream through its controller, saying the stream ended early', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)
    let chunks = 0

    const s = await session('chat-stream-abort', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, stream: true })
      for await (const _chunk of stream) if (++chunks === 4) stream.controller.abort()
    })

    // The SDK ends the loop quietly on an abort, as if the stream had ended.
    expect(chunks).toBe(4)
    expect(s.trace.turns[0]!.llm_call).toEqual(
      cutAfterCity({ name: 'Error', message: 'the stream ended before [DONE]: the response is incomplete (was the request aborted?)' }),
    )
  })

  it("records what arrived when the consumer closes the stream's iterator with return()", async () => {
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('chat-stream-return', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true })
      const iterator = stream[Symbol.asyncIterator]()
      await iterator.next()
      await iterator.next()
      await iterator.return?.()
    })

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'It is',
      error: { name: 'Error', message: 'the stream was closed by its reader before [DONE]: the response is incomplete' },
    })
  })

  it('records what arrived, with the error, when the stream fails; the reader gets the SDK error unchanged', async () => {
    const server = await startCannedServer(inOrder(sse('chat/stream-error.sse')))
    const client = openaiClient(server)
    let caught: unknown

    const s = await session('chat-stream-error', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, stream: true })
      try {
        for await (const _chunk of stream);
      } catch (error) {
        caught = error
      }
    })

    expect(caught).toBeInstanceOf(APIError)
    expect((caught as APIError).message).toBe('The server had an error while processing your request. Sorry about that!')
    expect(s.trace.turns[0]!.llm_call).toEqual(
      cutAfterCity({ name: 'APIError', message: 'The server had an error while processing your request. Sorry about that!', stack: expect.any(String) }),
    )
  })

  it('records a stream nobody read to the end when the session closes, saying why it is incomplete', async () => {
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const client = openaiClient(server)

    const s = await session('chat-stream-unread', { save: false }, async () => {
      await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true })
    })

    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call).toEqual({
      messages: [QUESTION],
      response_text: null,
      tool_calls: [],
      model: 'gpt-4o',
      provider: 'openai',
      token_usage: null,
      timestamp: expect.any(Number),
      latency_ms: expect.any(Number),
      error: {
        name: 'Error',
        message: 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
      },
    })
  })

  it('keeps tee(): both halves see every chunk and the turn is recorded once', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)

    const s = await session('chat-stream-tee', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, stream: true })
      const [left, right] = stream.tee()
      const read = async (half: typeof left): Promise<number> => {
        let count = 0
        for await (const _chunk of half) count++
        return count
      }
      return Promise.all([read(left), read(right)])
    })

    const events = fixtureEvents('chat/tool-call.sse').length
    expect(s.output).toEqual([events, events])
    expect(s.trace.turns).toHaveLength(1)
    expect(s.trace.turns[0]!.llm_call.tool_calls.map((call) => call.arguments)).toEqual([{ city: 'Paris' }, { city: 'Rome' }])
  })

  it('keeps toReadableStream(): the caller reads JSON lines, the turn is recorded from the same reading', async () => {
    const server = await startCannedServer(inOrder(sse('chat/tool-call.sse')))
    const client = openaiClient(server)

    const s = await session('chat-stream-readable', { save: false }, async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools, stream: true })
      const text = await new Response(stream.toReadableStream()).text()
      return text.trim().split('\n').length
    })

    expect(s.output).toBe(fixtureEvents('chat/tool-call.sse').length)
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.arguments))).toEqual([[{ city: 'Paris' }, { city: 'Rome' }]])
  })
})
