import { describe, expect, it } from 'vitest'
import { redactValue, resolveRedactPolicy } from '../../src/redact/index.js'

const policy = resolveRedactPolicy(undefined, { env: {} })!
const redact = (text: string): string => redactValue(text, policy)

describe('JSON text inside a string', () => {
  it('is redacted as structure and written back compact when it came compact', () => {
    expect(redact('{"password":"hunter2","api_key":"k","rows":[1,2],"ok":true}')).toBe(
      '{"password":"[REDACTED]","api_key":"[REDACTED]","rows":[1,2],"ok":true}',
    )
  })

  it("keeps Python's json.dumps separators", () => {
    expect(redact('{"token": "abc", "rows": [1, 2], "note": "a, b: c"}')).toBe('{"token": "[REDACTED]", "rows": [1, 2], "note": "a, b: c"}')
  })

  it('keeps the indentation, tabs and CRLF line breaks', () => {
    expect(redact('{\n    "secret": "s",\n    "n": 1\n}')).toBe('{\n    "secret": "[REDACTED]",\n    "n": 1\n}')
    expect(redact('{\r\n\t"secret": "s",\r\n\t"n": 1\r\n}')).toBe('{\r\n\t"secret": "[REDACTED]",\r\n\t"n": 1\r\n}')
  })

  it('keeps the surrounding whitespace and writes ASCII-only text ASCII-only', () => {
    expect(redact('  {"pwd": "x", "city": "S\\u00e3o Paulo"}\n')).toBe('  {"pwd": "[REDACTED]", "city": "S\\u00e3o Paulo"}\n')
    expect(redact('{"pwd":"x","city":"São Paulo"}')).toBe('{"pwd":"[REDACTED]","city":"São Paulo"}')
  })

  it('finds a secret key inside JSON inside JSON', () => {
    const inner = JSON.stringify({ client_secret: 'abc', id: 1 })
    expect(redact(JSON.stringify({ body: inner }))).toBe(JSON.stringify({ body: JSON.stringify({ client_secret: '[REDACTED]', id: 1 }) }))
  })

  it('finds a key spelt with unicode escapes', () => {
    expect(redact('{"\\u0070assword":"x"}')).toBe('{"password":"[REDACTED]"}')
  })

  it('returns the very string when nothing in it is secret', () => {
    const text = '{ "a" :1,"b":  [ 2 ] }'
    expect(redact(text)).toBe(text)
  })

  it('treats text that only looks like JSON as text', () => {
    expect(redact('{password: hunter2}')).toBe('{password: [REDACTED]}')
    expect(redact('[not json, token=abc]')).toBe('[not json, token=[REDACTED]]')
  })

  it('redacts JSON nested too deep to write back as text, without overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}{"password": "hunter2"}${']'.repeat(100_000)}`
    const out = redact(deep)
    expect(out).toBe(deep.replace('hunter2', '[REDACTED]'))
  })

  it('walks JSON texts inside JSON texts within 512 levels in all, and redacts the one past them as text', () => {
    const nest = (depth: number, inner: string): string => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    const within = nest(200, JSON.stringify({ log: nest(200, '{"credentials":{"user":"a"}}') }))
    expect(redact(within)).toBe(nest(200, JSON.stringify({ log: nest(200, '{"credentials":"[REDACTED]"}') })))
    const past = nest(300, JSON.stringify({ log: nest(300, '{"credentials":{"user":"a"}}') }))
    expect(redact(past)).toBe(nest(300, JSON.stringify({ log: nest(300, '{"credentials":[REDACTED]}') })))
  })
})
