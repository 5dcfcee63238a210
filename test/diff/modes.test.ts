import { describe, expect, it } from 'vitest'
import { diffTraces, type MatchMode } from '../../src/entries/diff.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'

const lookup = ['lookup', { id: 1 }, { ok: true }] as const
const search = ['search', { q: 'paris' }, { hits: 3 }] as const
const refund = ['refund', { id: 1 }, { ok: true }] as const

const expected = scriptTrace([lookup, search, refund, 'Done.'])

function equalIn(actual: ScriptedTurn[]): Record<MatchMode, boolean> {
  const trace = scriptTrace(actual)
  const modes: MatchMode[] = ['strict', 'unordered', 'subset', 'superset']
  return Object.fromEntries(modes.map((mode) => [mode, diffTraces(expected, trace, { mode }).equal])) as Record<MatchMode, boolean>
}

describe('diffTraces() modes, as agentevals trajectory match modes', () => {
  it.each<[string, ScriptedTurn[], Record<MatchMode, boolean>]>([
    ['the same calls in the same order', [lookup, search, refund, 'Done.'], { strict: true, unordered: true, subset: true, superset: true }],
    ['the same calls in another order', [search, lookup, refund, 'Done.'], { strict: false, unordered: true, subset: true, superset: true }],
    [
      'the same calls, two of them in one turn',
      [{ calls: [lookup, search] }, refund, 'Done.'],
      { strict: false, unordered: true, subset: true, superset: true },
    ],
    ['an extra call', [lookup, search, ['audit', { id: 1 }, null], refund, 'Done.'], { strict: false, unordered: false, subset: false, superset: true }],
    ['a missing call', [lookup, refund, 'Done.'], { strict: false, unordered: false, subset: true, superset: false }],
    ['a call made twice', [lookup, search, search, refund, 'Done.'], { strict: false, unordered: false, subset: false, superset: true }],
    [
      'a call with other arguments',
      [lookup, ['search', { q: 'rome' }, { hits: 3 }], refund, 'Done.'],
      { strict: false, unordered: false, subset: false, superset: false },
    ],
    [
      'a call with another result',
      [lookup, ['search', { q: 'paris' }, { hits: 4 }], refund, 'Done.'],
      { strict: false, unordered: false, subset: false, superset: false },
    ],
    ['another final answer', [search, lookup, refund, 'Done!'], { strict: false, unordered: false, subset: false, superset: false }],
  ])('%s', (_, actual, expectedOutcome) => {
    expect(equalIn(actual)).toEqual(expectedOutcome)
  })

  it('counts calls as a multiset in unordered mode: one call made once where two were expected is missing once', () => {
    const twice = scriptTrace([search, search])
    const diff = diffTraces(twice, scriptTrace([search]), { mode: 'unordered' })
    expect(diff.changes.map((c) => [c.kind, c.subject, c.turn, c.path])).toEqual([
      ['removed', 'tool_call', { expected: 1, actual: null }, 'turns[1].llm_call.tool_calls[0]'],
    ])
  })

  it('reports an extra call in subset mode as added, and lets a missing one go', () => {
    const diff = diffTraces(expected, scriptTrace([lookup, ['audit', { id: 1 }, null], 'Done.']), { mode: 'subset' })
    expect(diff.changes.map((c) => [c.kind, c.tool, c.turn, c.path])).toEqual([
      ['added', 'audit', { expected: null, actual: 1 }, 'turns[1].llm_call.tool_calls[0]'],
    ])
  })

  it('shows a call whose arguments differ as one changed call, not a removal and an addition', () => {
    const diff = diffTraces(expected, scriptTrace([refund, lookup, ['search', { q: 'rome' }, { hits: 3 }], 'Done.']), { mode: 'unordered' })
    expect(diff.changes.map((c) => [c.kind, c.subject, c.turn, c.path, c.expected, c.actual])).toEqual([
      ['changed', 'arguments', { expected: 1, actual: 2 }, 'turns[2].llm_call.tool_calls[0].arguments.q', 'paris', 'rome'],
    ])
  })

  it('compares the results of calls matched in another order', () => {
    const diff = diffTraces(expected, scriptTrace([['search', { q: 'paris' }, { hits: 4 }], lookup, refund, 'Done.']), { mode: 'superset' })
    expect(diff.changes.map((c) => [c.kind, c.turn, c.call, c.path, c.expected, c.actual])).toEqual([
      ['changed', { expected: 1, actual: 0 }, { expected: 0, actual: 0 }, 'turns[0].tool_results[0].result.hits', 3, 4],
    ])
  })

  it('compares the final answers in the order-free modes', () => {
    const diff = diffTraces(expected, scriptTrace([search, lookup, refund, 'Done!']), { mode: 'unordered' })
    expect(diff.changes.map((c) => [c.kind, c.subject, c.turn, c.path])).toEqual([
      ['changed', 'response_text', { expected: 3, actual: 3 }, 'turns[3].llm_call.response_text'],
    ])
  })

  it('rejects an unknown mode with a RangeError listing the valid ones', () => {
    expect(() => diffTraces(expected, expected, { mode: 'loose' as MatchMode })).toThrowError(
      new RangeError('diffTraces() option "mode" must be one of "strict", "unordered", "subset", "superset"; got "loose".'),
    )
    expect(() => diffTraces(expected, expected, { mode: 1 as never })).toThrowError(TypeError)
  })
})
