import { describe, expect, it } from 'vitest'
import { eventStreamBody, parseEventStream, type SseEvent } from '../../src/http/sse.js'

/** Every chunk a body gives, as text, one entry per read. */
async function chunksOf(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const decoder = new TextDecoder()
  const chunks: string[] = []
  for await (const chunk of body) chunks.push(decoder.decode(chunk))
  return chunks
}

const EVENTS: SseEvent[] = [
  { event: 'message_start', data: { type: 'message_start', n: 1 } },
  { data: { choices: [] } },
  { text: 'two\nlines' },
  { text: '[DONE]' },
]

describe('the Server-Sent Events codec', () => {
  it('sends one event per read, its name on an event: line and each line of its data on a data: line', async () => {
    expect(await chunksOf(eventStreamBody(EVENTS, undefined))).toEqual([
      'event: message_start\ndata: {"type":"message_start","n":1}\n\n',
      'data: {"choices":[]}\n\n',
      'data: two\ndata: lines\n\n',
      'data: [DONE]\n\n',
    ])
  })

  it('reads back the events it sends: JSON data as data, anything else as text', async () => {
    const text = (await chunksOf(eventStreamBody(EVENTS, undefined))).join('')
    expect(parseEventStream(text)).toEqual(EVENTS)
  })

  it('fails the body with the abort reason when the signal fires', async () => {
    const controller = new AbortController()
    const reader = eventStreamBody(EVENTS, controller.signal).getReader()
    await reader.read()
    const reason = new Error('stopped by the caller')
    controller.abort(reason)
    await expect(reader.read()).rejects.toBe(reason)
  })
})
