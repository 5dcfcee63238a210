import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../src/entries/index.js'
import { diffTraces, type DiffOptions } from '../../src/entries/diff.js'
import { scriptTrace } from '../helpers/script-trace.js'

const expected = scriptTrace([['search', { q: 'paris', limit: 5 }, { hits: 3 }]])
const call = (args: Record<string, unknown>) => scriptTrace([['search', args, { hits: 3 }]])

function changes(actualArgs: Record<string, unknown>, options: DiffOptions): Array<[string, string, unknown, unknown]> {
  return diffTraces(expected, call(actualArgs), options).changes.map((c) => [c.kind, c.path, c.expected, c.actual])
}

const at = (key: string): string => `turns[0].llm_call.tool_calls[0].arguments.${key}`

describe('diffTraces() argument modes', () => {
  it('exact (the default): every key, both ways', () => {
    expect(changes({ q: 'rome', page: 2 }, {})).toEqual([
      ['changed', at('q'), 'paris', 'rome'],
      ['removed', at('limit'), 5, undefined],
      ['added', at('page'), undefined, 2],
    ])
  })

  it('subset: the actual arguments must be among the expected ones; missing ones are fine', () => {
    expect(changes({ q: 'paris' }, { args: 'subset' })).toEqual([])
    expect(changes({ q: 'paris', limit: 5, page: 2 }, { args: 'subset' })).toEqual([['added', at('page'), undefined, 2]])
  })

  it('superset: the actual arguments must contain the expected ones; extra ones are fine', () => {
    expect(changes({ q: 'paris', limit: 5, page: 2 }, { args: 'superset' })).toEqual([])
    expect(changes({ q: 'paris' }, { args: 'superset' })).toEqual([['removed', at('limit'), 5, undefined]])
  })

  it('ignore: arguments are not compared, but the calls still line up', () => {
    expect(changes({ q: 'rome' }, { args: 'ignore' })).toEqual([])
  })

  it('applies a rule per tool, with the default for the others', () => {
    const expected2 = scriptTrace([
      {
        calls: [
          ['search', { q: 'paris' }, 1],
          ['lookup', { id: 1, ts: 100 }, 2],
        ],
      },
    ])
    const actual2 = scriptTrace([
      {
        calls: [
          ['search', { q: 'rome' }, 1],
          ['lookup', { id: 2, ts: 200 }, 2],
        ],
      },
    ])
    const diff = diffTraces(expected2, actual2, { args: { default: 'exact', tools: { search: 'ignore', lookup: ['id'] } } })
    expect(diff.changes.map((c) => [c.tool, c.path, c.expected, c.actual])).toEqual([['lookup', 'turns[0].llm_call.tool_calls[1].arguments.id', 1, 2]])
  })

  it('calls a function rule with (actual, expected) and reports the arguments whole when it refuses', () => {
    const seen: Array<[JsonObject, JsonObject]> = []
    const atMost = (actual: JsonObject, expected: JsonObject): boolean => {
      seen.push([actual, expected])
      return (actual.limit as number) <= (expected.limit as number)
    }
    expect(changes({ q: 'paris', limit: 3 }, { args: { tools: { search: atMost } } })).toEqual([])
    expect(seen).toEqual([
      [
        { q: 'paris', limit: 3 },
        { q: 'paris', limit: 5 },
      ],
    ])
    expect(changes({ q: 'paris', limit: 9 }, { args: { tools: { search: atMost } } })).toEqual([
      ['changed', 'turns[0].llm_call.tool_calls[0].arguments', { q: 'paris', limit: 5 }, { q: 'paris', limit: 9 }],
    ])
  })

  it('uses the rules when matching calls in the order-free modes', () => {
    const diff = diffTraces(expected, call({ q: 'rome', limit: 5 }), { mode: 'unordered', args: { tools: { search: ['limit'] } } })
    expect(diff.equal).toBe(true)
  })

  it('tells a missing listed key from a null one', () => {
    const withNull = scriptTrace([['search', { q: null }, 1]])
    const without = scriptTrace([['search', {}, 1]])
    expect(diffTraces(withNull, without, { mode: 'unordered', args: { tools: { search: ['q'] } } }).equal).toBe(false)
  })

  it.each<[string, unknown, Error]>([
    ['an unknown mode', 'fuzzy', new RangeError('diffTraces() option "args" must be one of "exact", "subset", "superset", "ignore"; got "fuzzy".')],
    ['a number', 3, new TypeError('diffTraces() option "args" must be one of "exact", "subset", "superset", "ignore" or { default, tools }; got number.')],
    ['an unknown key', { tool: {} }, new TypeError('diffTraces() option "args" has an unknown key "tool". Valid keys: "default", "tools".')],
    [
      'a bad default',
      { default: 'all' },
      new RangeError('diffTraces() option "args.default" must be one of "exact", "subset", "superset", "ignore"; got "all".'),
    ],
    [
      'a bad tool rule',
      { tools: { search: 5 } },
      new TypeError(
        'diffTraces() option "args.tools.search" must be one of "exact", "subset", "superset", "ignore", a list of argument keys, or a function (actual, expected) => boolean; got number.',
      ),
    ],
    [
      'a bad tool mode',
      { tools: { search: 'loose' } },
      new RangeError('diffTraces() option "args.tools.search" must be one of "exact", "subset", "superset", "ignore"; got "loose".'),
    ],
  ])('rejects %s, naming the option and the valid values', (_, args, error) => {
    expect(() => diffTraces(expected, expected, { args: args as never })).toThrowError(error)
  })
})
