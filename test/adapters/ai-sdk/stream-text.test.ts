import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { stepCountIs, streamText, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../../src/entries/ai-sdk.js'
import { session } from '../../../src/entries/index.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { answer, sleep, streamingModel, text, toolCall, usage } from './scripted.js'

const weatherTools = () => ({
  weather: tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      await sleep(15)
      if (city === 'Atlantis') throw new RangeError('no such city')
      return { city, sky: 'sunny' }
    },
  }),
})

const weatherScript = () => [
  answer([text('Checking.'), toolCall('w1', 'weather', { city: 'Paris' }), toolCall('w2', 'weather', { city: 'Atlantis' })], usage(50, 20)),
  answer([text('Sunny in Paris; Atlantis is not a city.')], usage(90, 11)),
]

const callOptions: LanguageModelV3CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const parts: T[] = []
  for await (const part of stream as unknown as AsyncIterable<T>) parts.push(part)
  return parts
}

/** A model whose one stream is fed by the test, part by part. */
function handFedModel(): { model: MockLanguageModelV3; feed: ReadableStreamDefaultController<LanguageModelV3StreamPart> } {
  let feed!: ReadableStreamDefaultController<LanguageModelV3StreamPart>
  const stream = new ReadableStream<LanguageModelV3StreamPart>({ start: (controller) => void (feed = controller) })
  return { model: new MockLanguageModelV3({ modelId: 'hand-fed', doStream: { stream } }), feed }
}

const record = (model: LanguageModel | MockLanguageModelV3) => wrapLanguageModel({ model: model as MockLanguageModelV3, middleware: reagentMiddleware() })

describe('reagentMiddleware() with streamText', () => {
  it('records a streamed tool loop: text from the deltas, tool calls, usage and finish reason at the end of each stream', async () => {
    const s = await session('ai-sdk-stream', { save: false }, async () => {
      const result = streamText({
        model: record(streamingModel(weatherScript())),
        prompt: 'Weather in Paris and Atlantis?',
        tools: instrumentTools(weatherTools()),
        stopWhen: stepCountIs(3),
      })
      return result.text
    })

    expect(s.output).toBe('Sunny in Paris; Atlantis is not a city.')
    const [first, second] = s.trace.turns
    expect(first!.llm_call).toMatchObject({
      messages: [{ role: 'user', content: 'Weather in Paris and Atlantis?' }],
      response_text: 'Checking.',
      tool_calls: [
        { name: 'weather', arguments: { city: 'Paris' }, call_id: 'w1' },
        { name: 'weather', arguments: { city: 'Atlantis' }, call_id: 'w2' },
      ],
      model: 'scripted-gpt',
      token_usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 },
      stop_reason: 'tool-calls',
    })
    expect(first!.tool_results).toEqual([
      { call_id: 'w1', result: { city: 'Paris', sky: 'sunny' }, error: null, duration_ms: expect.any(Number) },
      { call_id: 'w2', result: null, error: 'RangeError: no such city', duration_ms: expect.any(Number) },
    ])
    expect(Math.min(...first!.tool_results.map((r) => r.duration_ms))).toBeGreaterThanOrEqual(10)
    expect(second!.llm_call).toMatchObject({
      response_text: 'Sunny in Paris; Atlantis is not a city.',
      stop_reason: 'stop',
      token_usage: { input_tokens: 90, output_tokens: 11 },
    })
    expect(second!.tool_results).toEqual([])
  })

  it('hands the caller the very parts the model streamed', async () => {
    const direct = await readAll((await streamingModel(weatherScript()).doStream(callOptions)).stream)
    let recorded: LanguageModelV3StreamPart[] = []
    await session('ai-sdk-stream-parts', { save: false }, async () => {
      recorded = await readAll((await record(streamingModel(weatherScript())).doStream(callOptions)).stream)
    })
    expect(recorded).toEqual(direct)

    // And through streamText: the same text chunks and the same full stream, with and without the middleware.
    const run = async (model: LanguageModel) => {
      const result = streamText({ model, prompt: 'Weather?', tools: weatherTools(), stopWhen: stepCountIs(3) })
      const chunks: string[] = []
      for await (const chunk of result.textStream) chunks.push(chunk)
      // Everything but the ids the SDK generates per run.
      const full = (await readAll(result.fullStream)).map((part) => {
        if (part.type === 'text-delta') return { type: part.type, text: part.text }
        if (part.type === 'tool-call') return { type: part.type, toolCallId: part.toolCallId, input: part.input }
        if (part.type === 'tool-result') return { type: part.type, toolCallId: part.toolCallId, output: part.output }
        if (part.type === 'tool-error') return { type: part.type, toolCallId: part.toolCallId, error: String(part.error) }
        if (part.type === 'finish-step' || part.type === 'finish') return { type: part.type, finishReason: part.finishReason }
        return part.type
      })
      return { chunks, full }
    }
    const plain = await run(streamingModel(weatherScript()))
    const withMiddleware = await session('ai-sdk-stream-same', { save: false }, () => run(record(streamingModel(weatherScript()))))
    const outsideSession = await run(record(streamingModel(weatherScript())))
    expect(withMiddleware.output).toEqual(plain)
    expect(withMiddleware.trace.turns).toHaveLength(2)
    expect(outsideSession).toEqual(plain)
    expect(plain.chunks).toEqual(['Check', 'ing.', 'Sunny in Paris; Atla', 'ntis is not a city.'])
  })

  it('records a stream that breaks with what arrived and the error, and the caller gets the same error', async () => {
    const { model, feed } = handFedModel()
    const reset = new Error('connection reset')
    let caught: unknown
    const s = await session('ai-sdk-stream-error', { save: false }, async () => {
      const reader = (await record(model).doStream(callOptions)).stream.getReader()
      feed.enqueue({ type: 'text-start', id: 't' })
      feed.enqueue({ type: 'text-delta', id: 't', delta: 'Half an ans' })
      feed.enqueue({ type: 'tool-call', toolCallId: 'k1', toolName: 'weather', input: '{"city":"Oslo"}' })
      for (let i = 0; i < 3; i++) await reader.read()
      feed.error(reset)
      await reader.read().catch((error: unknown) => (caught = error))
    })
    expect(caught).toBe(reset)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'Half an ans',
      tool_calls: [{ name: 'weather', arguments: { city: 'Oslo' }, call_id: 'k1' }],
      model: 'hand-fed',
      token_usage: null,
      error: { name: 'Error', message: 'connection reset' },
    })
  })

  it('records a stream the reader cancels, with what arrived', async () => {
    const { model, feed } = handFedModel()
    const s = await session('ai-sdk-stream-cancel', { save: false }, async () => {
      const reader = (await record(model).doStream(callOptions)).stream.getReader()
      feed.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon' })
      await reader.read()
      await reader.cancel()
    })

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'Once upon',
      error: { name: 'Error', message: 'the stream was closed by its reader before its finish part: the response is incomplete' },
    })
  })

  it('records a stream nobody read to the end when the session closes', async () => {
    const { model, feed } = handFedModel()
    const s = await session('ai-sdk-stream-abandoned', { save: false }, async () => {
      const reader = (await record(model).doStream(callOptions)).stream.getReader()
      feed.enqueue({ type: 'text-delta', id: 't', delta: 'Never fin' })
      await reader.read()
    })

    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'Never fin',
      error: {
        name: 'Error',
        message: 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
      },
    })
  })

  it('records tool results into the right session when the streams were made before it (ready-made test streams)', async () => {
    // The streams are built here, outside any session: the SDK then runs the tools outside its async context.
    const modelA = streamingModel(weatherScript(), { readyMade: true })
    const modelB = streamingModel(weatherScript(), { readyMade: true })
    const run = (name: string, model: MockLanguageModelV3) =>
      session(
        name,
        { save: false },
        async () => streamText({ model: record(model), prompt: 'Weather?', tools: instrumentTools(weatherTools()), stopWhen: stepCountIs(3) }).text,
      )
    const [a, b] = await Promise.all([run('ai-sdk-ready-a', modelA), run('ai-sdk-ready-b', modelB)])

    for (const s of [a, b]) {
      expect(s.trace.turns).toHaveLength(2)
      expect(s.trace.turns[0]!.tool_results.map((r) => [r.call_id, r.error])).toEqual([
        ['w1', null],
        ['w2', 'RangeError: no such city'],
      ])
      expect(s.trace.turns[0]!.tool_results.every((r) => r.duration_ms >= 10)).toBe(true)
    }
  })

  it('holds the result of a tool that finished before its call was recorded, and logs it right after (earlier SDK versions)', async () => {
    const warnings = captureWarnings()
    const { model, feed } = handFedModel()
    const tools = instrumentTools(weatherTools())
    const s = await session('ai-sdk-early-tool', { save: false }, async () => {
      const reader = (await record(model).doStream(callOptions)).stream.getReader()
      feed.enqueue({ type: 'tool-call', toolCallId: 'e1', toolName: 'weather', input: '{"city":"Rome"}' })
      await reader.read()
      // As ai < 6.0.260 did: the tool runs as soon as its call streams by, before the stream finishes.
      await tools.weather.execute!({ city: 'Rome' }, { toolCallId: 'e1', messages: [] })
      feed.enqueue({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(5, 5) })
      feed.close()
      while (!(await reader.read()).done);
    })

    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'e1', result: { city: 'Rome', sky: 'sunny' }, error: null, duration_ms: expect.any(Number) }])
    expect(s.trace.turns[0]!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(10)
    expect(await warnings.seen()).toEqual([])
  })

  it('keeps a result whose call never appears when the session closes', async () => {
    const tools = instrumentTools(weatherTools())
    const s = await session('ai-sdk-never-called', { save: false }, async () => {
      await tools.weather.execute!({ city: 'Lima' }, { toolCallId: 'ghost', messages: [] })
    })
    expect(s.trace.orphan_results).toEqual([
      { name: 'weather', call_id: 'ghost', result: { city: 'Lima', sky: 'sunny' }, error: null, duration_ms: expect.any(Number) },
    ])
  })

  it('records the last output of a tool that streams its outputs', async () => {
    const search = tool({
      inputSchema: z.object({ q: z.string() }),
      async *execute({ q }) {
        yield { status: 'searching', q }
        await sleep(10)
        yield { status: 'done', hits: 2 }
      },
    })
    const script = [answer([toolCall('s1', 'search', { q: 'refunds' })]), answer([text('2 hits.')])]
    const s = await session('ai-sdk-streaming-tool', { save: false }, async () => {
      const result = streamText({ model: record(streamingModel(script)), prompt: 'Search', tools: instrumentTools({ search }), stopWhen: stepCountIs(3) })
      return result.text
    })

    expect(s.output).toBe('2 hits.')
    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 's1', result: { status: 'done', hits: 2 }, error: null, duration_ms: expect.any(Number) }])
  })

  it('records the results of tools the provider ran itself', async () => {
    const script = [
      answer([
        { type: 'tool-call', toolCallId: 'p1', toolName: 'web_search', input: '{"query":"refund policy"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'p1', toolName: 'web_search', result: { urls: ['https://example.com/refunds'] } },
        { type: 'tool-call', toolCallId: 'p2', toolName: 'web_search', input: '{"query":"x"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'p2', toolName: 'web_search', result: 'quota exceeded', isError: true },
        text('Refunds take 30 days.'),
      ]),
    ]
    const s = await session('ai-sdk-provider-tools', { save: false }, async () => streamText({ model: record(streamingModel(script)), prompt: 'Policy?' }).text)

    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'p1', result: { urls: ['https://example.com/refunds'] }, error: null, duration_ms: 0 },
      { call_id: 'p2', result: null, error: 'quota exceeded', duration_ms: 0 },
    ])
  })
})
