import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { instrumentAnthropic } from '../../../src/entries/anthropic.js'
import { resetAdapterWarnings } from '../../../src/adapter-support/index.js'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer, type ReceivedRequest } from '../../helpers/canned-server.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { MODEL, instrumentedClient, plainClient, stableTurns } from './helpers.js'
import { internals } from '../../../src/session/internals.js'

const ASK = [{ role: 'user' as const, content: 'What is the weather in Paris?' }]
const toolUse = { json: fixtureJson('anthropic/weather-tool-use.json') }

function cityOf(request: ReceivedRequest): string {
  const [first] = (request.body as { messages: Array<{ content: string }> }).messages
  return first!.content
}

describe('instrumentAnthropic()', () => {
  it('returns the same client, still an Anthropic, which does nothing different outside a session', async () => {
    const server = await startCannedServer(inOrder(toolUse))
    const client = plainClient(server)
    const warnings = captureWarnings()

    expect(instrumentAnthropic(client)).toBe(client)
    expect(client).toBeInstanceOf(Anthropic)
    const promise = client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })
    // The SDK's own promise, not an observed copy of it.
    expect(Object.hasOwn(promise, 'asResponse')).toBe(false)
    expect((await promise).id).toBe('msg_01Aq9w938a90dw8q7Ktb6fLp')
    expect(await warnings.seen()).toEqual([])
  })

  it('records each call once when a client is instrumented twice', async () => {
    const server = await startCannedServer(inOrder(toolUse))
    const client = instrumentedClient(server)
    const create = client.messages.create

    expect(instrumentAnthropic(client)).toBe(client)
    expect(client.messages.create).toBe(create)
    const s = await session('twice', { save: false }, () => client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK }))
    expect(s.trace.turns).toHaveLength(1)
  })

  it('instruments the client withOptions() returns', async () => {
    const server = await startCannedServer(inOrder(toolUse))
    const client = instrumentedClient(server).withOptions({ timeout: 5_000 })

    expect(client).toBeInstanceOf(Anthropic)
    const s = await session('with-options', { save: false }, () => client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK }))
    expect(s.trace.turns.map((turn) => turn.llm_call.model)).toEqual([MODEL])
  })

  it('records client.beta.messages.create() and client.beta.messages.stream() as well', async () => {
    const server = await startCannedServer(inOrder(toolUse, { sse: fixtureText('anthropic/stream-text.sse') }))
    const client = instrumentedClient(server)

    const s = await session('beta', { save: false }, async () => {
      await client.beta.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, betas: ['token-efficient-tools-2025-02-19'] })
      return client.beta.messages.stream({ model: MODEL, max_tokens: 1024, messages: ASK }).finalText()
    })

    expect(s.output).toBe('Hello! How can I help you today?')
    expect(server.requests[0]!.headers['anthropic-beta']).toBe('token-efficient-tools-2025-02-19')
    expect(s.trace.turns.map((turn) => [turn.llm_call.tool_calls.map((call) => call.name), turn.llm_call.response_text])).toEqual([
      [['get_weather'], "I'll check the current weather in Paris."],
      [[], 'Hello! How can I help you today?'],
    ])
  })

  it('never mixes two sessions running at once through one shared client', async () => {
    const answered = new Map<string, number>()
    const answer = (city: string, delayMs: number) => {
      const step = answered.get(city) ?? 0
      answered.set(city, step + 1)
      const message = fixtureJson<Record<string, unknown>>('anthropic/weather-tool-use.json')
      return { delayMs, json: { ...message, content: [{ type: 'tool_use', id: `toolu_${city}_${step}`, name: 'get_weather', input: { city } }] } }
    }
    // Paris answers slowly and Rome quickly, so the two loops interleave.
    const server = await startCannedServer((request) => (cityOf(request) === 'Paris' ? answer('Paris', 30) : answer('Rome', 1)))
    const client = instrumentedClient(server)
    const agent = (city: string) =>
      session(`agent-${city}`, { save: false }, async () => {
        const messages: Anthropic.MessageParam[] = [{ role: 'user', content: city }]
        for (let step = 0; step < 3; step++) {
          const response = await client.messages.create({ model: MODEL, max_tokens: 64, messages })
          const [call] = response.content.filter((block) => block.type === 'tool_use')
          messages.push({ role: 'assistant', content: response.content })
          messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: `${city} step ${step}` }] })
        }
      })

    const [paris, rome] = await Promise.all([agent('Paris'), agent('Rome')])

    for (const [s, city] of [
      [paris, 'Paris'],
      [rome, 'Rome'],
    ] as const) {
      expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map(({ arguments: args, call_id }) => ({ args, call_id })))).toEqual(
        [0, 1, 2].map((step) => [{ args: { city }, call_id: `toolu_${city}_${step}` }]),
      )
      // The last result goes out with no further request, so only the first two are seen.
      expect(s.trace.turns.map((turn) => turn.tool_results.map((result) => result.result))).toEqual([[`${city} step 0`], [`${city} step 1`], []])
    }
  })

  it('keeps recording through another wrapper of create() that returns a plain promise', async () => {
    const server = await startCannedServer(inOrder(toolUse, { sse: fixtureText('anthropic/stream-tool-use.sse') }))
    const client = plainClient(server)
    const sdkCreate = client.messages.create
    Object.assign(client.messages, {
      create: async function (this: unknown, ...args: unknown[]) {
        return (await Reflect.apply(sdkCreate, this, args)) as unknown
      },
    })
    instrumentAnthropic(client)

    const s = await session('plain-promise', { save: false }, async () => {
      await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })
      for await (const event of await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true })) void event
    })

    expect(stableTurns(s.trace).map((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual([['get_weather'], ['get_forecast']])
  })

  it('lets the call go on when recording fails, and warns once', async () => {
    resetAdapterWarnings()
    const server = await startCannedServer(inOrder(toolUse, toolUse))
    const client = instrumentedClient(server)
    const warnings = captureWarnings()

    const s = await session('recording-fails', { save: false }, async (s) => {
      Object.assign(s[internals], {
        recordModelCall: () => {
          throw new Error('disk full')
        },
      })
      const first = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })
      const second = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })
      return [first.id, second.id]
    })

    expect(s.output).toEqual(['msg_01Aq9w938a90dw8q7Ktb6fLp', 'msg_01Aq9w938a90dw8q7Ktb6fLp'])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ADAPTER',
        message:
          'reagent-flow: reagent-flow/anthropic: could not record a messages.create() call (disk full). ' +
          'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
      },
    ])
  })

  it('throws a TypeError saying what it needs when given something else than a client', () => {
    expect(() => instrumentAnthropic({} as unknown as Anthropic)).toThrowError(
      new TypeError('instrumentAnthropic(client) needs an Anthropic client (new Anthropic() from @anthropic-ai/sdk), got an object without messages.create().'),
    )
    expect(() => instrumentAnthropic(undefined as unknown as Anthropic)).toThrowError(
      new TypeError('instrumentAnthropic(client) needs an Anthropic client (new Anthropic() from @anthropic-ai/sdk), got undefined.'),
    )
  })
})
