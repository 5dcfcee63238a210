import { describe, expect, it } from 'vitest'
import { openCall, SESSION_CLOSED, toolOutputValue } from '../src/adapter-support.js'
import { session } from '../src/index.js'

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
    expect(toolOutputValue([{ type: 'text', text: '{"a":' }, { type: 'input_text', text: '1}' }])).toEqual({ a: 1 })
    expect(toolOutputValue([{ type: 'text', text: 'sunny, ' }, { type: 'text', text: '18°C' }])).toBe('sunny, 18°C')
  })

  it('keeps content that is not all text (an image, an empty list, a value) as it is', () => {
    const image = [{ type: 'text', text: 'chart:' }, { type: 'image', source: { type: 'base64', data: 'iVBOR' } }]
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
})
