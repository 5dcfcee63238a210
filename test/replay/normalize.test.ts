import { describe, expect, it } from 'vitest'
import { readFetchRequest } from '../../src/adapter-support/request-body.js'
import { normalizeRequest, NOT_THE_ANSWER } from '../../src/replay/normalize.js'
import { liveKey, recordedKey } from '../../src/replay/step-key.js'
import type { StepRecord } from '../../src/storage/index.js'

describe('the normal form a request is matched on', () => {
  it('renumbers generated ids in order of appearance, the same id to the same number, so a conversation re-recorded live matches', () => {
    const conversation = (callId: string, responseId: string) => ({
      model: 'gpt-4o',
      previous_response_id: responseId,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', tool_calls: [{ id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: callId, content: '18°C' },
      ],
    })
    const first = normalizeRequest(conversation('call_abc', 'resp_1'))
    expect(first).toEqual(normalizeRequest(conversation('call_xyz', 'resp_2')))
    expect(first).toEqual({
      messages: [
        { content: 'Weather in Paris?', role: 'user' },
        { role: 'assistant', tool_calls: [{ function: { arguments: '{"city":"Paris"}', name: 'get_weather' }, id: 'id_1', type: 'function' }] },
        { content: '18°C', role: 'tool', tool_call_id: 'id_1' },
      ],
      model: 'gpt-4o',
      previous_response_id: 'id_2',
    })
  })

  it("keeps ids inside a tool's input and a schema as they are: they are the user's data", () => {
    const request = (orderId: string) => ({
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: orderId } }] }],
    })
    expect(normalizeRequest(request('42'))).not.toEqual(normalizeRequest(request('43')))
    expect(normalizeRequest(request('42'))).toEqual({
      messages: [{ content: [{ id: 'id_1', input: { id: '42' }, name: 'lookup', type: 'tool_use' }], role: 'assistant' }],
    })
  })

  it('leaves out what never changes the answer, sorts keys, and turns what JSON cannot hold into text', () => {
    const bytes = new Uint8Array([1, 2, 3])
    const request = {
      user: 'u-1',
      metadata: { trace: 'x' },
      store: true,
      prompt_cache_key: 'k',
      model: 'm',
      at: new Date(0),
      image: bytes,
      skip: undefined,
      fn: () => 1,
      big: 10n,
    }
    expect(normalizeRequest(request, { omit: NOT_THE_ANSWER })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      big: '10',
      image: { bytes: 3, sha256: '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81' },
      model: 'm',
    })
  })

  it('never throws: a circular value and a throwing getter become text', () => {
    const loop: Record<string, unknown> = { a: 1 }
    loop.self = loop
    expect(normalizeRequest(loop)).toEqual({ a: 1, self: '[circular]' })
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get: () => {
        throw new Error('no')
      },
    })
    expect(normalizeRequest(hostile)).toEqual({ unreadable: 'no' })
  })
})

describe('the key of a multipart request (a file upload)', () => {
  it('is the same for the live call and for its recording, read back from disk', async () => {
    const form = new FormData()
    form.append('model', 'whisper-1')
    form.append('file', new File([new Uint8Array([1, 2, 3])], 'call.mp3', { type: 'audio/mpeg' }))
    const request = await readFetchRequest('https://api.openai.com/v1/audio/transcriptions', { method: 'POST', body: form }, 'https://api.openai.com/v1')
    const live = liveKey('openai POST /audio/transcriptions', request.normal(), undefined)
    // The recording holds the request as JSON, read back with its keys in the order they were written.
    const recorded = { kind: 'exchange', endpoint: live.endpoint, request: JSON.parse(JSON.stringify(live.request)) } as StepRecord

    expect(recordedKey(recorded)).toBe(live.key)
  })
})
