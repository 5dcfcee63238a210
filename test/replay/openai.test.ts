import { describe, expect, it } from 'vitest'
import { fixtureText, inOrder } from '../helpers/canned-server.js'
import { json, openaiClient, sse, WEATHER_TOOL_SET } from '../adapters/openai/helpers.js'
import { getWeather, runChatAgent, runResponsesAgent, weatherParameters } from '../adapters/openai/weather-agent.js'
import { recordThenReplay } from './record-replay.js'

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

/** `value` without what a provider makes up on every call (ids, time, fingerprint): a recording keeps those in a steady form of its own. */
function withoutVolatile(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item: unknown) => (['id', 'created', 'system_fingerprint'].includes(key) ? undefined : item)))
}

/** The events of an SSE body, as data objects: a replayed stream carries the same events (its bytes may be spaced differently). */
function sseData(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown)
}

describe('record and replay with the OpenAI SDK (instrumentOpenAI), offline', () => {
  it('replays a chat completions tool loop: the same answer and turns, token usage kept, no socket opened', async () => {
    const { replayed, recording } = await recordThenReplay('chat-agent', inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')), (server) =>
      runChatAgent(openaiClient(server), 'What is the weather in Paris?'),
    )
    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
    expect(replayed.trace.turns.map((turn) => turn.llm_call.token_usage?.input_tokens)).toEqual([82, 121])
    expect(replayed.trace.turns[0]!.tool_results).toHaveLength(1)
    expect(recording()).toContain('"endpoint": "openai POST /chat/completions"')
  })

  it('records the same tools offered on a replayed call as on the recorded one', async () => {
    const { recorded, replayed } = await recordThenReplay('chat-tools', inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')), (server) =>
      runChatAgent(openaiClient(server), 'What is the weather in Paris?'),
    )
    expect(replayed.trace.turns.map((turn) => [turn.llm_call.replayed, turn.llm_call.tool_set])).toEqual([
      [true, WEATHER_TOOL_SET],
      [true, WEATHER_TOOL_SET],
    ])
    expect(replayed.trace.tool_sets).toEqual(recorded.trace.tool_sets)
    expect(Object.keys(replayed.trace.tool_sets!)).toEqual([WEATHER_TOOL_SET])
  })

  it('replays a streamed chat completion chunk for chunk, usage chunk included', async () => {
    const read = async (client: ReturnType<typeof openaiClient>) => {
      const chunks: unknown[] = []
      const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true, stream_options: { include_usage: true } })
      for await (const chunk of stream) chunks.push(withoutVolatile(chunk))
      return chunks
    }
    const { replayed } = await recordThenReplay('chat-stream', inOrder(sse('chat/tool-call.sse')), (server) => read(openaiClient(server)))
    expect(replayed.output).toEqual(sseData(fixtureText('openai/chat/tool-call.sse')).map(withoutVolatile))
    expect(replayed.trace.turns[0]!.llm_call.token_usage).not.toBeNull()
  })

  it('replays a Responses API tool loop and a streamed response', async () => {
    await recordThenReplay('responses-agent', inOrder(json('responses/function-call.json'), json('responses/final-answer.json')), (server) =>
      runResponsesAgent(openaiClient(server), 'What is the weather in Paris?'),
    )
    const { replayed } = await recordThenReplay('responses-stream', inOrder(sse('responses/final-answer.sse')), async (server) => {
      const types: string[] = []
      const stream = await openaiClient(server).responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?', stream: true })
      for await (const event of stream) types.push(event.type)
      return types
    })
    expect((replayed.output as string[]).at(-1)).toBe('response.completed')
  })

  it('keeps parse(), stream(), runTools(), withResponse(), asResponse() and tee() working on replayed calls', async () => {
    const { replayed } = await recordThenReplay(
      'sdk-helpers',
      inOrder(
        json('chat/tool-call.json'),
        sse('chat/final-answer.sse'),
        json('chat/tool-call.json'),
        json('chat/final-answer.json'),
        json('chat/final-answer.json'),
        json('chat/final-answer.json'),
        sse('chat/tool-call.sse'),
        sse('chat/final-answer.sse'),
      ),
      async (server) => {
        const client = openaiClient(server)
        const weatherTool = {
          type: 'function' as const,
          function: { name: 'get_weather', description: 'Current weather of a city.', parameters: weatherParameters, strict: true },
        }
        const parsed = await client.chat.completions.parse({ model: 'gpt-4o', messages: [QUESTION], tools: [weatherTool] })
        const streamed = await client.chat.completions.stream({ model: 'gpt-4o', messages: [QUESTION] }).finalChatCompletion()
        const ran = await client.chat.completions
          .runTools({
            model: 'gpt-4o',
            messages: [{ role: 'user', content: 'Paris?' }],
            tools: [
              {
                type: 'function',
                function: {
                  name: 'get_weather',
                  description: 'Current weather of a city.',
                  parameters: weatherParameters,
                  function: (args: { city: string }) => getWeather(args),
                  parse: (text: string) => JSON.parse(text) as { city: string },
                },
              },
            ],
          })
          .finalContent()
        const { data, response } = await client.chat.completions
          .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'with response' }] })
          .withResponse()
        const raw = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'as response' }] }).asResponse()
        const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'tee' }], stream: true })
        const [left, right] = stream.tee()
        const count = async (half: AsyncIterable<unknown>) => {
          let n = 0
          for await (const _chunk of half) n++
          return n
        }
        const rawStream = await client.chat.completions
          .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'raw stream' }], stream: true })
          .asResponse()
        return {
          parsed: parsed.choices[0]!.message.tool_calls![0]!.function.parsed_arguments,
          streamed: streamed.choices[0]!.message.content,
          ran,
          withResponse: [data.choices[0]!.message.content, response.status],
          asResponse: ((await raw.json()) as { object: string }).object,
          tee: await Promise.all([count(left), count(right)]),
          rawStream: sseData(await rawStream.text()).length,
        }
      },
      // The tee'd stream and the raw one end in either order.
      { anyOrder: true },
    )
    expect(replayed.output).toEqual({
      parsed: { city: 'Paris' },
      streamed: 'It is 18°C and sunny in Paris and 24°C in Rome.',
      ran: 'It is 18°C and sunny in Paris.',
      withResponse: ['It is 18°C and sunny in Paris.', 200],
      asResponse: 'chat.completion',
      tee: [sseData(fixtureText('openai/chat/tool-call.sse')).length, sseData(fixtureText('openai/chat/tool-call.sse')).length],
      rawStream: sseData(fixtureText('openai/chat/final-answer.sse')).length,
    })
    expect(replayed.trace.turns).toHaveLength(8)
  })

  it('records and replays every request of the client, not only model calls: embeddings and moderations', async () => {
    const { replayed, recording } = await recordThenReplay(
      'embeddings',
      inOrder({ json: JSON.parse(fixtureText('openai/embeddings.json')) as unknown }, { json: JSON.parse(fixtureText('openai/moderations.json')) as unknown }),
      async (server) => {
        const client = openaiClient(server)
        const embedded = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['refund policy', 'order 42'], encoding_format: 'float' })
        const moderated = await client.moderations.create({ model: 'omni-moderation-latest', input: 'Refund order 42, please.' })
        return { vectors: embedded.data.map((item) => item.embedding.length), flagged: moderated.results[0]!.flagged }
      },
    )
    expect(replayed.output).toEqual({ vectors: [4, 4], flagged: false })
    // Neither is an LLM call: nothing in the trace, both in the recording.
    expect(replayed.trace.turns).toEqual([])
    expect(recording()).toContain('"endpoint": "openai POST /embeddings"')
    expect(recording()).toContain('"endpoint": "openai POST /moderations"')
  })
})
