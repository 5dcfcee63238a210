import { describe, expect, it } from 'vitest'
import { isResultsFileError } from '../../src/errors/index.js'
import { mergeResults } from '../../src/results/merge.js'
import { parseResults, renderResults } from '../../src/results/results-file.js'
import type { RunResults } from '../../src/results/types.js'

function results(fields: Partial<RunResults> = {}): RunResults {
  return {
    results_version: 1,
    reagent_flow_version: '0.1.0',
    shard: { index: 1, count: 2 },
    started_at: 10,
    ended_at: 20,
    commit: 'abc',
    branch: 'main',
    tests: [],
    ...fields,
  }
}

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(isResultsFileError(error)).toBe(true)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('reading a results file', () => {
  it('reads back what it writes', () => {
    const written = results({
      tests: [{ file: 'a.test.ts', name: 't', line: 3, outcome: 'passed', duration_ms: 1, failure: null, golden: 'none', runs: [] }],
    })
    expect(parseResults('r.json', renderResults(written))).toEqual(written)
  })

  it('names the first field that breaks the schema', () => {
    const text = JSON.stringify(results({ tests: [{ file: 'a.test.ts', name: 't', outcome: 'passed' }] as never }))
    expect(refusal(() => parseResults('r.json', text))).toBe(
      "r.json is not a valid results file: /tests/0 must have required property 'line'. " +
        'Pass the file reagent-flow/vitest/reporter wrote (its results option), or run the tests again to write it.',
    )
  })

  it('refuses JSON that is not a results file', () => {
    expect(refusal(() => parseResults('r.json', '[1]'))).toBe(
      'r.json has no results_version: it is not a reagent-flow results file. Pass the file reagent-flow/vitest/reporter wrote (its results option), or run the tests again to write it.',
    )
  })
})

describe('merging shards', () => {
  it('refuses the results of a run without --shard', () => {
    const inputs = [
      { file: 'one.json', results: results() },
      { file: 'all.json', results: results({ shard: null }) },
    ]
    expect(refusal(() => mergeResults(inputs))).toBe(
      'all.json is not the results of a shard (vitest ran without --shard). Merge the results of vitest --shard <i>/<n> jobs; a run without --shard already has all its tests.',
    )
  })

  it('refuses a shard of another split', () => {
    const inputs = [
      { file: 'one.json', results: results() },
      { file: 'other.json', results: results({ shard: { index: 2, count: 3 } }) },
    ]
    expect(refusal(() => mergeResults(inputs))).toBe('other.json is shard 2/3, but one.json is shard 1/2. Merge the shards of one split (one --shard count).')
  })

  it('refuses a shard of an unknown commit among shards of a known one', () => {
    const inputs = [
      { file: 'one.json', results: results() },
      { file: 'two.json', results: results({ shard: { index: 2, count: 2 }, commit: null }) },
    ]
    expect(refusal(() => mergeResults(inputs))).toBe(
      "two.json was recorded at an unknown commit, but one.json at commit abc. Merge the shards of one commit: the results of this build's jobs only.",
    )
  })

  it('takes the earliest start, the latest end, and the tests by file', () => {
    const test = (file: string) => ({ file, name: file, line: 1, outcome: 'passed' as const, duration_ms: 1, failure: null, golden: 'none' as const, runs: [] })
    const { merged, missing } = mergeResults([
      { file: 'two.json', results: results({ shard: { index: 2, count: 2 }, started_at: 5, ended_at: 15, tests: [test('b'), test('d')] }) },
      { file: 'one.json', results: results({ tests: [test('a'), test('c')] }) },
    ])
    expect(missing).toEqual([])
    expect({ ...merged, tests: merged.tests.map((t) => t.file) }).toEqual({
      ...results({ shard: null, started_at: 5, ended_at: 20 }),
      merged_shards: [
        { index: 1, count: 2 },
        { index: 2, count: 2 },
      ],
      tests: ['a', 'b', 'c', 'd'],
    })
  })
})
