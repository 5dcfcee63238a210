import { describe, expect, it } from 'vitest'
import { type FlakyTest, findFlaky } from '../../src/compare/index.js'
import { seededRuns } from './seeded-agent.js'

describe('findFlaky', () => {
  it('finds a test whose repeated runs on one commit both passed and failed, with the counts', () => {
    const runs = seededRuns(0.8, 10, 7).map((run) => ({ ...run, commit: 'a1b2c3d' }))
    const flaky: FlakyTest[] = findFlaky([
      { id: 'test/search.test.ts > search agent > finds a flight', runs },
      { id: 'test/refund.test.ts > refund agent > refunds order 42', runs: runs.map((run) => ({ ...run, passed: true })) },
    ])
    const passed = runs.filter((run) => run.passed).length
    expect(passed).toBeGreaterThan(0)
    expect(passed).toBeLessThan(10)
    expect(flaky).toEqual([{ id: 'test/search.test.ts > search agent > finds a flight', commit: 'a1b2c3d', passed, failed: 10 - passed }])
  })

  it('does not call a test flaky for passing on one commit and failing on the next: the code changed', () => {
    expect(
      findFlaky([
        {
          id: 'a',
          runs: [
            { passed: true, commit: 'one' },
            { passed: true, commit: 'one' },
            { passed: false, commit: 'two' },
          ],
        },
      ]),
    ).toEqual([])
  })

  it('lists each commit it was flaky on, sorted by test then commit; runs without a commit count as one unknown commit', () => {
    const mixed = (commit?: string) => [
      commit === undefined ? { passed: true } : { passed: true, commit },
      commit === undefined ? { passed: false } : { passed: false, commit },
    ]
    expect(
      findFlaky([
        { id: 'b', runs: [...mixed('two'), ...mixed('one')] },
        { id: 'a', runs: [...mixed(), { passed: false }] },
      ]),
    ).toEqual([
      { id: 'a', commit: null, passed: 1, failed: 2 },
      { id: 'b', commit: 'one', passed: 1, failed: 1 },
      { id: 'b', commit: 'two', passed: 1, failed: 1 },
    ])
  })
})
