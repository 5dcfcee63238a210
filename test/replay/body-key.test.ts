import { describe, expect, it } from 'vitest'
import type { RedactOption } from '../../src/redact/index.js'
import { NormalTextWriter } from '../../src/replay/normal-text.js'
import { normalizeRequest, NOT_THE_ANSWER } from '../../src/replay/normalize.js'
import { bodyKey, liveKey, parsedBody } from '../../src/replay/step-key.js'

const ENDPOINT = 'openai POST /chat/completions'

/** The key the long way gives: the body parsed, put in normal form, redacted, written with sorted keys. */
function longWay(body: string, redact: RedactOption | undefined) {
  return liveKey(ENDPOINT, normalizeRequest(JSON.parse(body), { omit: NOT_THE_ANSWER }), redact)
}

function oneWalk(body: string, redact: RedactOption | undefined, writer = new NormalTextWriter(redact)) {
  return bodyKey(ENDPOINT, parsedBody(body), NOT_THE_ANSWER, () => normalizeRequest(JSON.parse(body), { omit: NOT_THE_ANSWER }), writer, redact)
}

const BODIES: Record<string, unknown> = {
  'a chat request with tools': {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a weather assistant. Look the forecast up day by day before you answer.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', tool_calls: [{ id: 'call_Xy12', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_Xy12', content: '{"temp":18}' },
    ],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }],
    user: 'someone',
    metadata: { run: 7 },
  },
  'ids renumbered in sorted order, ids under a tool input kept': { z: { id: 'b' }, a: { call_id: 'a', input: { id: 'mine' } }, previous_response_id: 'resp_1' },
  'a secret in a message': { messages: [{ role: 'user', content: 'my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD' }] },
  'a secret key': { password: 'hunter2', nested: { api_key: 'abc123' } },
  'a header pair': { headers: [['Authorization', 'Bearer abc.def.ghi']] },
  'a header list entry': { headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
  'a schema describing a secret': { parameters: { type: 'object', properties: { password: { type: 'string', description: 'the password' } } } },
  'JSON in a string holding a secret': { content: '{"token":"abc123def456"}' },
  'integer-like keys': { '10': 'a', '9': 'b', x: { '0': 1 } },
  'a value already redacted': { token: '[REDACTED]' },
  'non-finite numbers': JSON.parse('{"big":1e400,"small":-1e400}') as unknown,
  'a __proto__ key': JSON.parse('{"__proto__":{"id":"p"},"a":1}') as unknown,
  'a list at the top': [1, { id: 'q' }, 'text'],
  'a string at the top': 'just text',
}

const OPTIONS: Record<string, RedactOption | undefined> = {
  'the default rules': undefined,
  'redact: false': false,
  'a key name of the user': ['city'],
  'a value pattern of the user': { values: [/Paris/] },
}

describe("an HTTP call's key, read from its body in one walk", () => {
  for (const [body, value] of Object.entries(BODIES)) {
    for (const [option, redact] of Object.entries(OPTIONS)) {
      it(`is the key of the long way, and the same written request: ${body}, ${option}`, () => {
        const text = JSON.stringify(value)
        const expected = longWay(text, redact)
        // Twice through one writer: what it remembered of the first call changes nothing.
        const writer = new NormalTextWriter(redact)
        for (const key of [oneWalk(text, redact, writer), oneWalk(text, redact, writer)]) {
          expect(key.key).toBe(expected.key)
          expect(key.request).toEqual(expected.request)
        }
      })
    }
  }

  it('builds the normal form only when it is read for a request redaction leaves as it is, and at once for one holding a secret', () => {
    const keyed = (value: unknown) => {
      let built = 0
      const text = JSON.stringify(value)
      const key = bodyKey(
        ENDPOINT,
        parsedBody(text),
        NOT_THE_ANSWER,
        () => {
          built++
          return normalizeRequest(JSON.parse(text), { omit: NOT_THE_ANSWER })
        },
        new NormalTextWriter(undefined),
        undefined,
      )
      return { key, built: () => built }
    }
    const plain = keyed(BODIES['a chat request with tools'])
    expect(plain.built()).toBe(0)
    expect(plain.key.request).toEqual(longWay(JSON.stringify(BODIES['a chat request with tools']), undefined).request)
    expect(plain.built()).toBe(1)
    expect(keyed(BODIES['a secret in a message']).built()).toBe(1)
  })

  it('is the long way for a body that is not JSON', () => {
    const key = bodyKey(ENDPOINT, parsedBody('not json'), NOT_THE_ANSWER, () => ({ text: 'not json' }), new NormalTextWriter(undefined), undefined)
    expect(key.key).toBe(`${ENDPOINT}\n{"text":"not json"}`)
  })

  it('nests as deep as the normal form does, then takes the long way', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 250; i++) deep = { id: `x${i}`, next: deep }
    const text = JSON.stringify(deep)
    expect(oneWalk(text, undefined).key).toBe(longWay(text, undefined).key)
  })
})

describe('an HTTP call compared with a recorded request in one walk', () => {
  const recorded = (value: unknown, redact: RedactOption | undefined) => longWay(JSON.stringify(value), redact).request

  for (const [option, redact] of Object.entries(OPTIONS)) {
    it(`is the recorded request only when their keys are equal, under ${option}`, () => {
      const writer = new NormalTextWriter(redact)
      for (const a of Object.values(BODIES)) {
        for (const b of Object.values(BODIES)) {
          const same = writer.isRecorded(parsedBody(JSON.stringify(a))!, NOT_THE_ANSWER, recorded(b, redact))
          if (same) expect(longWay(JSON.stringify(a), redact).key).toBe(longWay(JSON.stringify(b), redact).key)
        }
      }
    })
  }

  it('finds a request with no secret in its recorded form, ids renumbered and the fields that never change the answer left out', () => {
    const writer = new NormalTextWriter(undefined)
    const request = BODIES['a chat request with tools'] as Record<string, unknown>
    const rerecorded = JSON.stringify({
      ...request,
      user: 'someone else',
      messages: JSON.parse(JSON.stringify(request.messages).replaceAll('call_Xy12', 'call_new')),
    })
    expect(writer.isRecorded(parsedBody(rerecorded)!, NOT_THE_ANSWER, recorded(request, undefined))).toBe(true)
    // A recorded request whose keys are not in sorted order (edited by hand) is left to the key.
    const reversed = Object.fromEntries(Object.entries(recorded(request, undefined) as Record<string, unknown>).reverse())
    expect(writer.isRecorded(parsedBody(JSON.stringify(request))!, NOT_THE_ANSWER, reversed as never)).toBe(false)
    const changed = JSON.stringify({ ...request, model: 'gpt-4.1' })
    expect(writer.isRecorded(parsedBody(changed)!, NOT_THE_ANSWER, recorded(request, undefined))).toBe(false)
  })

  it('leaves a request holding a secret to its key (its recorded form is redacted)', () => {
    const writer = new NormalTextWriter(undefined)
    const body = BODIES['a secret in a message']
    expect(writer.isRecorded(parsedBody(JSON.stringify(body))!, NOT_THE_ANSWER, recorded(body, undefined))).toBe(false)
  })
})
