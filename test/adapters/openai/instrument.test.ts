import OpenAI from 'openai'
import { Completions } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../../src/entries/openai.js'
import { session, traceTool } from '../../../src/entries/index.js'
import { inOrder, startCannedServer, type ReceivedRequest } from '../../helpers/canned-server.js'
import { json, openaiClient, sse, toolResult } from './helpers.js'
import { chatTools, getWeather, runChatAgent, runResponsesAgent } from './weather-agent.js'

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

/** What reached the server, minus the Host header (each server has its own port). */
function sent(requests: readonly ReceivedRequest[]): unknown[] {
  return requests.map(({ method, path, headers, body }) => {
    const { host: _host, ...rest } = headers
    return { method, path, headers: rest, body }
  })
}

describe('instrumentOpenAI(client)', () => {
  it('returns the same client, still an OpenAI, its resources still the SDK classes', () => {
    const client = new OpenAI({ apiKey: 'sk-test-key' })
    const instrumented = instrumentOpenAI(client)
    expect(instrumented).toBe(client)
    expect(instrumented).toBeInstanceOf(OpenAI)
    expect(instrumented.chat.completions).toBeInstanceOf(Completions)
    expect(Completions.prototype.create).not.toBe(instrumented.chat.completions.create)
    expect(new OpenAI({ apiKey: 'sk-test-key' }).chat.completions.create).toBe(Completions.prototype.create)
  })

  it('sends exactly what the uninstrumented client sends, and returns the same results, for both APIs, streamed or not', async () => {
    const canned = () =>
      inOrder(
        json('chat/tool-call.json'),
        json('chat/final-answer.json'),
        json('responses/function-call.json'),
        json('responses/final-answer.json'),
        sse('chat/tool-call.sse'),
      )
    const agent = async (client: OpenAI): Promise<unknown[]> => {
      const stream = async (): Promise<unknown[]> => {
        const chunks: unknown[] = []
        const events = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true, stream_options: { include_usage: true } })
        for await (const chunk of events) chunks.push(chunk)
        return chunks
      }
      return [await runChatAgent(client, 'What is the weather in Paris?'), await runResponsesAgent(client, 'What is the weather in Paris?'), await stream()]
    }
    const plainServer = await startCannedServer(canned())
    const recordedServer = await startCannedServer(canned())

    const plain = await agent(openaiClient(plainServer, { instrument: false }))
    const recorded = await session('unchanged', { save: false }, () => agent(openaiClient(recordedServer)))

    expect(recorded.trace.turns).toHaveLength(5)
    expect(recorded.output).toEqual(plain)
    expect(sent(recordedServer.requests)).toEqual(sent(plainServer.requests))
  })

  it('is harmless twice: each call is still recorded once', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const client = instrumentOpenAI(instrumentOpenAI(openaiClient(server)))

    const s = await session('twice', { save: false }, () => client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }))

    expect(s.trace.turns).toHaveLength(1)
  })

  it('instruments the client withOptions() returns', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const derived = openaiClient(server).withOptions({ timeout: 5_000 })

    const s = await session('with-options', { save: false }, () => derived.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }))

    expect(derived).toBeInstanceOf(OpenAI)
    expect(derived.timeout).toBe(5_000)
    expect(s.trace.turns.map((turn) => turn.llm_call.response_text)).toEqual(['It is 18°C and sunny in Paris.'])
  })

  it('keeps two sessions sharing one client apart, even with their calls interleaved', async () => {
    // Each request is answered after a delay that makes the two agents' calls overlap.
    const server = await startCannedServer((request) => {
      const messages = (request.body as { messages: Array<{ content: string }> }).messages
      return { ...json('chat/final-answer.json'), delayMs: messages[0]!.content === 'agent A' ? 15 : 5 }
    })
    const client = openaiClient(server)
    const agent = (name: string) => async () => {
      for (let i = 0; i < 3; i++) await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: name }] })
    }

    const [a, b] = await Promise.all([session('agent-a', { save: false }, agent('agent A')), session('agent-b', { save: false }, agent('agent B'))])

    const askedBy = (turns: typeof a.trace.turns): unknown[] => turns.map((turn) => turn.llm_call.messages?.[0]?.content)
    expect(askedBy(a.trace.turns)).toEqual(['agent A', 'agent A', 'agent A'])
    expect(askedBy(b.trace.turns)).toEqual(['agent B', 'agent B', 'agent B'])
  })

  it('records a result once when traceTool recorded it and the next request carries it again', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const weather = traceTool('get_weather', getWeather)

    const s = await session('trace-tool-once', { save: false }, async () => {
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], tools: chatTools })
      const message = first.choices[0]!.message
      const call = message.tool_calls![0]!
      const result = weather({ city: 'Paris' })
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [QUESTION, message, { role: 'tool', tool_call_id: call.id, content: `${result.temperature_c}°C, ${result.conditions}` }],
      })
    })

    expect(s.trace.turns[0]!.tool_results).toEqual([toolResult('call_Wk3nq1UdFpYH3gL7f9rEoZ2c', getWeather({ city: 'Paris' }))])
    expect(s.trace.turns[1]!.tool_results).toEqual([])
  })

  it('leaves alone tool messages answering calls this session never saw', async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const client = openaiClient(server)

    const s = await session('earlier-history', { save: false }, () =>
      client.chat.completions.create({
        model: 'gpt-4o',
        messages: [
          QUESTION,
          { role: 'assistant', tool_calls: [{ id: 'call_from_yesterday', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_from_yesterday', content: 'sunny' },
        ],
      }),
    )

    expect(s.trace.turns.map((turn) => turn.tool_results)).toEqual([[]])
    expect(s.trace.orphan_results).toBeUndefined()
  })

  it('refuses what is not an OpenAI client, saying what it needs', () => {
    expect(() => instrumentOpenAI({} as OpenAI)).toThrowError(
      new TypeError('instrumentOpenAI(client) needs an OpenAI client (new OpenAI() from "openai"), got an object without chat.completions.'),
    )
    expect(() => instrumentOpenAI(undefined as unknown as OpenAI)).toThrowError(
      new TypeError('instrumentOpenAI(client) needs an OpenAI client (new OpenAI() from "openai"), got undefined.'),
    )
  })
})
