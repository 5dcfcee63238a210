import Anthropic, { APIPromise } from '@anthropic-ai/sdk'
import { Stream } from '@anthropic-ai/sdk/core/streaming'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { MODEL, instrumentedClient, plainClient, stableTurns } from './helpers.js'

const ASK = [{ role: 'user' as const, content: 'What is the weather in Paris?' }]
const REQUEST_ID = 'req_018EeWyXxfu5pfWkrYcMdjWG'
const toolUse = { json: fixtureJson('anthropic/weather-tool-use.json'), headers: { 'request-id': REQUEST_ID } }
const overloaded = { status: 529, json: fixtureJson('anthropic/error-overloaded.json'), headers: { 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy' } }
const weatherCall = { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' }, call_id: 'toolu_01A09q90qw90lq917835lq9', timestamp: 0 }

describe('instrumentAnthropic(): the APIPromise and API errors', () => {
  it('returns an APIPromise whose withResponse() gives the parsed message, the raw Response and the request id; recorded once', async () => {
    const server = await startCannedServer(inOrder(toolUse))
    const client = instrumentedClient(server)

    const s = await session('with-response', { save: false }, async () => {
      const promise = client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })
      expect(promise).toBeInstanceOf(APIPromise)
      const { data, response, request_id } = await promise.withResponse()
      return { id: data.id, status: response.status, request_id, same: (await promise) === data }
    })

    expect(s.output).toEqual({ id: 'msg_01Aq9w938a90dw8q7Ktb6fLp', status: 200, request_id: REQUEST_ID, same: true })
    expect(stableTurns(s.trace).map((turn) => turn.llm_call.tool_calls)).toEqual([[weatherCall]])
  })

  it('hands over an unread body with asResponse() and records the call from a copy of it', async () => {
    const server = await startCannedServer(inOrder(toolUse, { sse: fixtureText('anthropic/stream-tool-use.sse') }))
    const client = instrumentedClient(server)

    const s = await session('as-response', { save: false }, async () => {
      const json = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK }).asResponse()
      const sse = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true }).asResponse()
      return { json: (await json.json()) as unknown, sse: await sse.text(), type: sse.headers.get('content-type') }
    })

    expect(s.output).toEqual({ json: toolUse.json, sse: fixtureText('anthropic/stream-tool-use.sse'), type: 'text/event-stream' })
    expect(stableTurns(s.trace).map((turn) => [turn.llm_call.tool_calls, turn.llm_call.stop_reason, turn.llm_call.error])).toEqual([
      [[weatherCall], 'tool_use', undefined],
      [
        [{ name: 'get_forecast', arguments: { city: 'Paris', unit: 'celsius', days: 3 }, call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', timestamp: 0 }],
        'tool_use',
        undefined,
      ],
    ])
  })

  it('records a stream taken with withResponse() from the stream the agent reads, not from a copy of the body', async () => {
    const server = await startCannedServer(inOrder({ sse: fixtureText('anthropic/stream-tool-use.sse') }))
    const client = instrumentedClient(server)

    const s = await session('stream-with-response', { save: false }, async () => {
      const { data } = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK, stream: true }).withResponse()
      return data
    })

    expect(s.output).toBeInstanceOf(Stream)
    expect(s.trace.turns[0]!.llm_call.error).toEqual({
      name: 'Error',
      message: 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
    })
  })

  it("keeps _thenUnwrap(), which the SDK's helpers build on, and records messages.parse() once", async () => {
    const server = await startCannedServer(inOrder(toolUse, toolUse))
    const client = instrumentedClient(server)

    const s = await session('then-unwrap', { save: false }, async () => {
      const unwrapped = client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK })._thenUnwrap((message) => message.stop_reason)
      expect(unwrapped).toBeInstanceOf(APIPromise)
      const parsed = await client.messages.parse({ model: MODEL, max_tokens: 1024, messages: ASK })
      return [await unwrapped, parsed.id]
    })

    expect(s.output).toEqual(['tool_use', 'msg_01Aq9w938a90dw8q7Ktb6fLp'])
    expect(s.trace.turns).toHaveLength(2)
  })

  it('rethrows an API error (529 overloaded_error) unchanged and records it on the turn', async () => {
    const server = await startCannedServer(inOrder(overloaded, overloaded))
    const request = { model: MODEL, max_tokens: 1024, messages: ASK }
    const expected = await plainClient(server)
      .messages.create(request)
      .catch((error: unknown) => error)
    const client = instrumentedClient(server)
    let caught: unknown

    const s = await session('overloaded', { save: false }, async () => {
      caught = await client.messages.create(request).catch((error: unknown) => error)
    })

    expect(caught).toBeInstanceOf(Anthropic.OverloadedError)
    // Everything but the response headers, whose Date may tick between the two requests.
    const comparable = (error: unknown) => {
      const { status, error: body, message, requestID } = error as InstanceType<typeof Anthropic.APIError>
      return { type: (error as object).constructor, status, body, message, requestID }
    }
    expect(comparable(caught)).toEqual(comparable(expected))
    const { message, stack } = caught as Error
    // The SDK's errors are all named "Error": the trace names them by class, as for OpenAI.
    const name = 'OverloadedError'
    expect(message).toBe('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}')
    expect(stableTurns(s.trace)).toEqual([
      {
        index: 0,
        llm_call: {
          messages: ASK,
          response_text: null,
          tool_calls: [],
          model: MODEL,
          provider: 'anthropic',
          token_usage: null,
          timestamp: 0,
          latency_ms: 0,
          error: { name, message, stack },
        },
        tool_results: [],
        duration_ms: 0,
      },
    ])
  })

  it('rethrows a connection failure unchanged and records it on the turn', async () => {
    const server = await startCannedServer(inOrder())
    const client = instrumentedClient(server)
    await server.close()
    let caught: unknown

    const s = await session('unreachable', { save: false }, async () => {
      caught = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK }).catch((error: unknown) => error)
    })

    expect(caught).toBeInstanceOf(Anthropic.APIConnectionError)
    const { message, stack } = caught as Error
    expect(message).toBe('Connection error.')
    expect(s.trace.turns.map((turn) => turn.llm_call.error)).toEqual([{ name: 'APIConnectionError', message, stack }])
  })

  it("records a call the SDK's retries rescued as one turn, without the error", async () => {
    const server = await startCannedServer(inOrder({ ...overloaded, headers: { ...overloaded.headers, 'retry-after-ms': '1' } }, toolUse))
    const client = instrumentedClient(server, { maxRetries: 1 })

    const s = await session('retried', { save: false }, () => client.messages.create({ model: MODEL, max_tokens: 1024, messages: ASK }))

    expect(server.requests).toHaveLength(2)
    expect(stableTurns(s.trace).map((turn) => [turn.llm_call.tool_calls, turn.llm_call.error])).toEqual([[[weatherCall], undefined]])
  })
})
