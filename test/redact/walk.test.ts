import { describe, expect, it } from 'vitest'
import { TraceFormatError } from '../../src/errors/index.js'
import { redactForDisk } from '../../src/entries/files.js'
import { redactValue, resolveRedactPolicy } from '../../src/redact/index.js'
import type { JsonValue } from '../../src/trace/types.js'
import { deepValue } from '../helpers/deep-trace.js'

const policy = resolveRedactPolicy(undefined, { env: {} })!
const redact = <T extends JsonValue>(value: T): T => redactValue(value, policy)

describe('redactValue()', () => {
  it('replaces the value of a secret key whole, at any depth, whatever it holds', () => {
    expect(redact({ request: { headers: { Authorization: { scheme: 'Bearer', value: 'x' } } }, credentials: ['a', 'b'], api_key: 123 })).toEqual({
      request: { headers: { Authorization: '[REDACTED]' } },
      credentials: '[REDACTED]',
      api_key: '[REDACTED]',
    })
  })

  it('leaves null and booleans under secret keys: they hold no secret', () => {
    expect(redact({ password: null, has_password: true, token: false })).toEqual({ password: null, has_password: true, token: false })
  })

  it('replaces a weak key (session) only when it holds a string or number', () => {
    expect(redact({ session: 'abc', data: { session: { id: 'sess_1', model: 'gpt-4o-realtime' } } })).toEqual({
      session: '[REDACTED]',
      data: { session: { id: 'sess_1', model: 'gpt-4o-realtime' } },
    })
  })

  it('catches header tuples and header objects by the name they carry', () => {
    expect(
      redact({
        headers: [
          ['Authorization', 'Token abc'],
          ['Accept', 'json'],
        ],
        har: [
          { name: 'Cookie', value: 'a=b' },
          { name: 'Host', value: 'x' },
        ],
      }),
    ).toEqual({
      headers: [
        ['Authorization', '[REDACTED]'],
        ['Accept', 'json'],
      ],
      har: [
        { name: 'Cookie', value: '[REDACTED]' },
        { name: 'Host', value: 'x' },
      ],
    })
  })

  it('walks JSON Schemas under secret names instead of replacing them', () => {
    const parameters = {
      type: 'object',
      properties: { password: { type: 'string', description: 'the new password' }, api_key: { type: 'string', default: 'k' } },
    }
    expect(redact(parameters)).toEqual({ type: 'object', properties: { password: { type: 'string', description: 'the new password' }, api_key: '[REDACTED]' } })
  })

  it('reads `token` beside `logprob` as a token of text', () => {
    const logprobs = { content: [{ token: 'Hello', logprob: -0.1, top_logprobs: [{ token: 'Hi', logprob: -2 }] }] }
    expect(redact(logprobs)).toBe(logprobs)
  })

  it('replaces a secret used as an object key, keeping keys unique and in order', () => {
    const [a, b] = ['sk-proj-AAAAbbbbCCCCdddd1234', 'sk-proj-EEEEffffGGGGhhhh5678']
    const out = redact({ first: 1, [a]: { owner: 'x' }, [b]: 2, '[REDACTED]': 3 })
    expect(Object.entries(out)).toEqual([
      ['first', 1],
      ['[REDACTED]', { owner: 'x' }],
      ['[REDACTED]#2', 2],
      ['[REDACTED]#3', 3],
    ])
  })

  it('never modifies its input and shares what it did not change', () => {
    const input = { nested: { password: 'hunter2' }, other: { a: 1 }, list: [{ q: 'x' }] }
    const out = redact(input)
    expect(input.nested.password).toBe('hunter2')
    expect(out.other).toBe(input.other)
    expect(out.list).toBe(input.list)
    const clean = { a: [1, 'two', { b: null }] }
    expect(redact(clean)).toBe(clean)
  })

  it('keeps a "__proto__" key as an own key', () => {
    const input = JSON.parse('{"__proto__": {"password": "p"}, "x": "Bearer abcdefghijklmnop"}') as JsonValue
    const out = redact(input) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"password":"[REDACTED]"},"x":"Bearer [REDACTED]"}')
  })

  it('redacts a value nested 1,000 levels deep, the most a trace file may nest', () => {
    let deep: JsonValue = { password: 'hunter2', keep: 'x' } as JsonValue
    for (let i = 0; i < 999; i++) deep = i % 2 === 0 ? [deep] : { a: deep }
    let out: JsonValue = redact(deep)
    for (let i = 999 - 1; i >= 0; i--) out = (i % 2 === 0 ? (out as JsonValue[])[0] : (out as Record<string, JsonValue>).a) as JsonValue
    expect(out).toEqual({ password: '[REDACTED]', keep: 'x' })
  })
})

describe('redactForDisk() of a value nested deeper than a trace file may be', () => {
  it('refuses 100,000 levels with the TraceFormatError the reader gives, not a RangeError', () => {
    let deep: JsonValue = { password: 'hunter2', keep: 'x' } as JsonValue
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep }
    expect(() => redactForDisk(deep)).toThrow(
      new TraceFormatError('<value>', 'a[0].a[0].a[0].a[0]', 'depth', 'nests more than 1,000 levels deep; reagent-flow reads at most 1,000'),
    )
    expect(() => redactForDisk(deep)).toThrow(
      '<value> is not a valid reagent-flow trace: at a[0].a[0].a[0].a[0]: nests more than 1,000 levels deep; reagent-flow reads at most 1,000 (rule: depth).',
    )
  })

  it('accepts 1,000 levels and refuses 1,001', () => {
    expect(redactForDisk(deepValue(999, { password: 'hunter2' }))).toEqual(deepValue(999, { password: '[REDACTED]' }))
    expect(() => redactForDisk(deepValue(1_000, { password: 'hunter2' }))).toThrow(TraceFormatError)
  })
})
