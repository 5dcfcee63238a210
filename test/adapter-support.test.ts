import { describe, expect, it } from 'vitest'
import { openCall, resetAdapterWarnings, SESSION_CLOSED, tapStream, toolOutputValue, type StreamEnd } from '../src/adapter-support/index.js'
import { session } from '../src/entries/index.js'
import { captureWarnings } from './helpers/warnings.js'

describe('toolOutputValue: a tool output sent back to the model, as the value the tool returned', () => {
  it('parses text holding a JSON object or array', () => {
    expect(toolOutputValue('{"temp":21}')).toEqual({ temp: 21 })
    expect(toolOutputValue(' [1, 2]')).toEqual([1, 2])
  })

  it('keeps any other text as text, even when it reads as a JSON number, boolean or string', () => {
    expect(toolOutputValue('42')).toBe('42')
    expect(toolOutputValue('true')).toBe('true')
    expect(toolOutputValue('"quoted"')).toBe('"quoted"')
    expect(toolOutputValue('{not json')).toBe('{not json')
  })

  it('joins text parts with nothing between them, then reads the text the same way', () => {
    expect(
      toolOutputValue([
        { type: 'text', text: '{"a":' },
        { type: 'input_text', text: '1}' },
      ]),
    ).toEqual({ a: 1 })
    expect(
      toolOutputValue([
        { type: 'text', text: 'sunny, ' },
        { type: 'text', text: '18°C' },
      ]),
    ).toBe('sunny, 18°C')
  })

  it('keeps content that is not all text (an image, an empty list, a value) as it is', () => {
    const image = [
      { type: 'text', text: 'chart:' },
      { type: 'image', source: { type: 'base64', data: 'iVBOR' } },
    ]
    expect(toolOutputValue(image)).toBe(image)
    expect(toolOutputValue([])).toEqual([])
    expect(toolOutputValue({ ok: true })).toEqual({ ok: true })
    expect(toolOutputValue(undefined)).toBeUndefined()
  })
})

describe('openCall: calls the session outlives', () => {
  it('cuts short, when the session closes, only the calls not done yet, with the same error for every adapter', async () => {
    const cut: string[] = []
    await session('open-calls', { save: false }, (s) => {
      const doneA = openCall(s, (reason) => cut.push(`a: ${reason}`))
      openCall(s, (reason) => cut.push(`b: ${reason}`))
      doneA()
    })
    expect(cut).toEqual([`b: ${SESSION_CLOSED}`])
    expect(SESSION_CLOSED).toBe(
      'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
    )
  })

  it('waits for a cut that returns a promise, one call at a time in start order, and cuts a call opened meanwhile too', async () => {
    const cut: string[] = []
    const s = await session('open-calls-async', { save: false }, (s) => {
      openCall(s, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        cut.push('a')
        // Work the first cut waited for started another call.
        openCall(s, () => cut.push('c'))
      })
      openCall(s, () => cut.push('b'))
    })
    expect(cut).toEqual(['a', 'b', 'c'])
    expect(s.closed).toBe(true)
  })
})

describe('tapStream: a stream watched while its reader reads it', () => {
  async function* events(...values: unknown[]): AsyncGenerator<unknown> {
    for (const value of values) yield value
    if (values.includes('boom')) throw new Error('connection reset')
  }

  it('reports each event and how the reading ended: done, return (a break) or error', async () => {
    const seen: unknown[] = []
    const ends: StreamEnd[] = []
    const watch = { onEvent: (event: unknown) => void seen.push(event), onEnd: (end: StreamEnd) => void ends.push(end) }
    const whole = events('a', 'b')
    tapStream(whole, 'test-adapter', watch)
    for await (const event of whole) void event
    const left = events('c', 'd')
    tapStream(left, 'test-adapter', watch)
    for await (const event of left) if (event === 'c') break
    const broken = events('boom')
    tapStream(broken, 'test-adapter', watch)
    await expect(async () => {
      for await (const event of broken) void event
    }).rejects.toThrowError('connection reset')
    expect(seen).toEqual(['a', 'b', 'c', 'boom'])
    expect(ends).toEqual([{ how: 'done' }, { how: 'return' }, { how: 'error', error: new Error('connection reset') }])
  })

  it('reports a stream whose controller was aborted, which SDK streams end quietly, as aborted', async () => {
    const ends: StreamEnd[] = []
    const controller = new AbortController()
    const stream = Object.assign(events('a', 'b'), { controller })
    tapStream(stream, 'test-adapter', { onEvent: () => undefined, onEnd: (end) => void ends.push(end) })
    for await (const event of stream) if (event === 'a') controller.abort()
    expect(ends).toEqual([{ how: 'abort' }])
  })

  it('never lets a failing watch reach the reader: it warns once, stops watching events, and still reports the end', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const ends: string[] = []
    const stream = events(1, 2, 3)
    tapStream(stream, 'test-adapter', {
      onEvent: () => {
        throw new Error('accumulator broken')
      },
      onEnd: (end) => void ends.push(end.how),
    })
    const read: unknown[] = []
    for await (const event of stream) read.push(event)
    expect(read).toEqual([1, 2, 3])
    expect(ends).toEqual(['done'])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ADAPTER',
        message:
          'reagent-flow: test-adapter: could not record a streamed event (accumulator broken). ' +
          'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
      },
    ])
  })
})
