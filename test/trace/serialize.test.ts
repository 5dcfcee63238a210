import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { stringifyStable, toJsonValue, type ValueIssueKind } from '../../src/trace/serialize.js'
import { captureWarnings } from '../helpers/warnings.js'

function convert(value: unknown): { json: unknown; issues: Array<[ValueIssueKind, string]> } {
  const issues: Array<[ValueIssueKind, string]> = []
  const json = toJsonValue(value, (kind, path) => issues.push([kind, path]))
  return { json, issues }
}

describe('toJsonValue()', () => {
  it('copies plain JSON unchanged and reports nothing', () => {
    const value = { a: [1, 'two', null, true, { b: 2.5 }] }
    const { json, issues } = convert(value)
    expect(json).toEqual(value)
    expect(json).not.toBe(value)
    expect(issues).toEqual([])
  })

  it('replaces a circular reference with "[Circular]"', () => {
    const value: Record<string, unknown> = { name: 'loop' }
    value.self = value
    expect(convert(value)).toEqual({ json: { name: 'loop', self: '[Circular]' }, issues: [['circular reference', 'self']] })
  })

  it('keeps a shared, non-circular object twice', () => {
    const shared = { x: 1 }
    expect(convert({ a: shared, b: shared }).json).toEqual({ a: { x: 1 }, b: { x: 1 } })
  })

  it('writes stand-ins for values JSON cannot hold, naming each path', () => {
    function lookupOrder(): void {}
    const { json, issues } = convert({
      big: 12345678901234567890n,
      fn: lookupOrder,
      sym: Symbol('k'),
      missing: undefined,
      when: new Date('2026-01-02T03:04:05.000Z'),
      map: new Map([['a', 1]]),
      pairs: new Map<unknown, unknown>([[{ k: 1 }, 'v']]),
      set: new Set([1, 2]),
      bytes: new Uint8Array([1, 2, 3]),
      nan: Number.NaN,
      inf: -Infinity,
      pending: Promise.resolve(1),
    })
    expect(json).toEqual({
      big: '12345678901234567890',
      fn: '[Function: lookupOrder]',
      sym: 'Symbol(k)',
      missing: null,
      when: '2026-01-02T03:04:05.000Z',
      map: { a: 1 },
      pairs: [[{ k: 1 }, 'v']],
      set: [1, 2],
      bytes: [1, 2, 3],
      nan: 'NaN',
      inf: '-Infinity',
      pending: '[Promise]',
    })
    expect(issues).toEqual([
      ['BigInt', 'big'],
      ['function', 'fn'],
      ['symbol', 'sym'],
      ['undefined', 'missing'],
      ['Date', 'when'],
      ['Map', 'map'],
      ['Map', 'pairs'],
      ['Set', 'set'],
      ['typed array', 'bytes'],
      ['non-finite number', 'nan'],
      ['non-finite number', 'inf'],
      ['Promise', 'pending'],
    ])
  })

  it('writes an Error as name, message and its own fields, without the stack', () => {
    const error = Object.assign(new TypeError('bad input', { cause: 'user' }), { status: 400 })
    expect(convert({ error }).json).toEqual({ error: { name: 'TypeError', message: 'bad input', status: 400, cause: 'user' } })
  })

  it('survives a getter that throws and a Proxy that refuses to be read', () => {
    const getter = {
      ok: 1,
      get broken(): never {
        throw new Error('no access')
      },
    }
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('revoked')
        },
      },
    )
    expect(convert({ getter, proxy })).toEqual({
      json: { getter: { ok: 1, broken: '[Thrown: no access]' }, proxy: '[Unreadable: revoked]' },
      issues: [
        ['throwing getter', 'getter.broken'],
        ['unreadable object', 'proxy'],
      ],
    })
  })

  it('uses toJSON of class instances that define one, and own fields of others', () => {
    class Money {
      constructor(readonly cents: number) {}
      toJSON(): string {
        return `$${this.cents / 100}`
      }
    }
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    expect(convert({ price: new Money(1999), at: new Point(1, 2) })).toEqual({ json: { price: '$19.99', at: { x: 1, y: 2 } }, issues: [] })
  })

  it('cuts nesting deeper than 64 levels', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100; i++) deep = { d: deep }
    const text = JSON.stringify(convert(deep).json)
    expect(text).toContain('"[Too deep]"')
    expect(convert(deep).issues.map(([kind]) => kind)).toEqual(['nesting too deep'])
  })

  it('turns a missing top-level value into null without a report', () => {
    expect(convert(undefined)).toEqual({ json: null, issues: [] })
  })
})

describe('recording values that are not JSON', () => {
  it('never throws and warns once per kind per session, naming the trace path', async () => {
    const warnings = captureWarnings()
    const s = await session('odd-values', { save: false }, (s) => {
      const circular: Record<string, unknown> = {}
      circular.me = circular
      s.logLlmCall({ toolCalls: [{ name: 'a', arguments: { when: new Date(0), loop: circular } }] })
      s.logToolResult('a', { result: { at: new Date(1), id: 10n } })
    })
    expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ at: '1970-01-01T00:00:00.001Z', id: '10' })
    const messages = (await warnings.seen()).map((w) => w.message)
    expect(messages).toEqual([
      'reagent-flow: session "odd-values": a Date at turns[0].llm_call.tool_calls[0].arguments.when in a logged value was written as an ISO 8601 string. ' +
        'Further Date values in this session are converted without another warning; log plain JSON to avoid it.',
      'reagent-flow: session "odd-values": a circular reference at turns[0].llm_call.tool_calls[0].arguments.loop.me in a logged value was written as "[Circular]". ' +
        'Further circular reference values in this session are converted without another warning; log plain JSON to avoid it.',
      'reagent-flow: session "odd-values": a BigInt at result of "a".id in a logged value was written as a decimal string. ' +
        'Further BigInt values in this session are converted without another warning; log plain JSON to avoid it.',
    ])
  })

  it('names each kind as a sentence says it: "an undefined value", "an Error", "values nested too deep"', async () => {
    const warnings = captureWarnings()
    let deep: unknown = 'bottom'
    for (let i = 0; i < 70; i++) deep = { deep }
    await session('odd-words', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'a', arguments: { missing: undefined, failure: new Error('x'), deep } }] })
    })
    const openings = (await warnings.seen()).map((w) =>
      w.message.replace(/ at turns\S* in a logged value was .*?\. (?=Further)/, ' | ').replace(/ in this session .*$/, ''),
    )
    expect(openings).toEqual([
      'reagent-flow: session "odd-words": an undefined value | Further undefined values',
      'reagent-flow: session "odd-words": an Error | Further Error values',
      'reagent-flow: session "odd-words": a value nested too deep | Further values nested too deep',
    ])
  })
})

describe('stringifyStable()', () => {
  it('sorts keys at every depth, indents by two spaces and ends with a newline', () => {
    expect(stringifyStable({ b: 1, a: { d: [], c: {} }, e: [{ z: 1, y: 2 }] })).toBe(
      '{\n  "a": {\n    "c": {},\n    "d": []\n  },\n  "b": 1,\n  "e": [\n    {\n      "y": 2,\n      "z": 1\n    }\n  ]\n}\n',
    )
  })

  it('writes the named keys of an object as floats', () => {
    const value = { started_at: 0, count: 0 }
    expect(stringifyStable(value, new WeakMap([[value, new Set(['started_at'])]]))).toBe('{\n  "count": 0,\n  "started_at": 0.0\n}\n')
  })
})
