import { describe, expect, it } from 'vitest'
import { type Run, type TestRuns, compareTests, describeVerdict } from '../../src/compare/index.js'
import { fisherExact } from '../../src/compare/fisher-exact.js'
import { isUsageError } from '../../src/errors/index.js'
import { seededRuns } from './seeded-agent.js'

const ID = 'test/refund.test.ts > refund agent > refunds order 42'

function compareOne(baseline: Run[], current: Run[], confidence?: number) {
  const comparison = compareTests([{ id: ID, runs: baseline }], [{ id: ID, runs: current }], confidence === undefined ? {} : { confidence })
  const test = comparison.tests[0]
  if (test === undefined) throw new Error('the test was not compared')
  return test
}

const passes = (runs: readonly Run[]): number => runs.filter((run) => run.passed).length
const tokens = (...values: number[]): Run[] => values.map((value) => ({ passed: true, tokens: value }))

describe('a seeded agent', () => {
  it('whose pass rate drops from 95% to 60%, with 20 runs each, regressed', () => {
    const baseline = seededRuns(0.95, 20, 19)
    const current = seededRuns(0.6, 20, 1019)
    expect([passes(baseline), passes(current)]).toEqual([19, 12])
    const test = compareOne(baseline, current)
    expect(test.verdict).toBe('regressed')
    const [passRate] = test.figures
    expect(passRate).toMatchObject({
      figure: 'pass_rate',
      test: 'fisher-exact',
      verdict: 'regressed',
      reason: 'significant',
      baseline: { passed: 19, n: 20, rate: 0.95 },
      current: { passed: 12, n: 20, rate: 0.6 },
      confidence: 0.95,
    })
    expect(passRate?.p).toBeCloseTo(0.019656019656019656, 12)
    expect(passRate?.effect).toBeCloseTo(-0.35, 12)
    expect(passRate && 'interval' in passRate ? [passRate.interval.low.toFixed(4), passRate.interval.high.toFixed(4)] : []).toEqual(['-0.5673', '-0.0902'])
    expect(passRate && describeVerdict(passRate)).toBe('regressed')
  })

  it('at 95% against 90%, with 10 runs each, is unchanged (within noise), and says how many runs would tell', () => {
    const baseline = seededRuns(0.95, 10, 5)
    const current = seededRuns(0.9, 10, 1005)
    expect([passes(baseline), passes(current)]).toEqual([10, 9])
    const test = compareOne(baseline, current)
    expect(test.verdict).toBe('unchanged')
    const [passRate] = test.figures
    expect(passRate).toMatchObject({ verdict: 'unchanged', reason: 'within noise', needs: { baseline: 56, current: 56 } })
    expect(passRate?.p).toBeCloseTo(1, 12)
    expect(passRate && describeVerdict(passRate)).toBe('unchanged (within noise)')
    // 56 runs each at 100% and 90% (56 against 50 passes) is significant; 55 (55 against 50) is not.
    expect(fisherExact(56, 0, 50, 6)).toBeLessThanOrEqual(0.05)
    expect(fisherExact(55, 0, 50, 5)).toBeGreaterThan(0.05)
  })

  it('is not a lucky seed: over 200 seeds, 95% to 60% at 20 runs regressed 146 times, 95% against 90% at 10 runs stayed unchanged 199 times', () => {
    let regressed = 0
    let unchanged = 0
    for (let seed = 1; seed <= 200; seed++) {
      if (compareOne(seededRuns(0.95, 20, seed), seededRuns(0.6, 20, seed + 1000)).verdict === 'regressed') regressed++
      if (compareOne(seededRuns(0.95, 10, seed), seededRuns(0.9, 10, seed + 1000)).verdict === 'unchanged') unchanged++
    }
    expect([regressed, unchanged]).toEqual([146, 199])
  })
})

describe('too few runs', () => {
  it('two runs a side can never tell a pass rate apart: unchanged (too few runs), with the runs the observed drop needs', () => {
    const [passRate] = compareOne([{ passed: true }, { passed: true }], [{ passed: true }, { passed: false }]).figures
    expect(passRate).toMatchObject({ verdict: 'unchanged', reason: 'too few runs', effect: -0.5, needs: { baseline: 10, current: 10 } })
    expect(passRate && describeVerdict(passRate)).toBe('unchanged (too few runs: needs 10 per side)')
  })

  it('with nothing observed to grow, says how many runs let any outcome be significant', () => {
    const [passRate] = compareOne([{ passed: true }, { passed: true }, { passed: true }], [{ passed: true }, { passed: true }, { passed: true }]).figures
    expect(passRate).toMatchObject({ verdict: 'unchanged', reason: 'too few runs', effect: 0, needs: { baseline: 4, current: 4 } })
  })

  it('three runs a side of tokens, all higher, are too few; the pass rate, passed in every run, is no figure of the correction', () => {
    const test = compareOne(tokens(100, 110, 105), tokens(200, 210, 190))
    expect(test.figures.map((figure) => [figure.figure, describeVerdict(figure)])).toEqual([
      ['pass_rate', 'unchanged (too few runs: needs 4 per side)'],
      ['tokens', 'unchanged (too few runs: needs 4 per side)'],
    ])
    expect(test.figures[1]).toMatchObject({
      test: 'mann-whitney-u-exact',
      p: 0.1,
      adjustedP: 0.1,
      baseline: { median: 105, n: 3 },
      current: { median: 200, n: 3 },
      effect: 95,
    })
  })
})

describe('numeric figures', () => {
  const lower = tokens(...Array.from({ length: 10 }, (_, i) => 1000 + i * 10))
  const higher = tokens(...Array.from({ length: 10 }, (_, i) => 1200 + i * 10))

  it('more tokens is a regression, fewer an improvement, compared by the Mann–Whitney U test', () => {
    expect(compareOne(lower, higher).figures[1]).toMatchObject({
      figure: 'tokens',
      test: 'mann-whitney-u-asymptotic',
      verdict: 'regressed',
      effect: 200,
      baseline: { median: 1045, n: 10 },
      current: { median: 1245, n: 10 },
    })
    expect(compareOne(higher, lower).figures[1]).toMatchObject({ figure: 'tokens', verdict: 'improved', effect: -200 })
    expect(compareOne(higher, lower).verdict).toBe('improved')
  })

  it('a regressed figure makes the test regressed, whatever improved', () => {
    const baseline = lower.map((run, i) => ({ ...run, usd: 0.05 - i * 0.001 }))
    const current = higher.map((run, i) => ({ ...run, usd: 0.01 + i * 0.001 }))
    const test = compareOne(baseline, current)
    expect(test.figures.map((figure) => [figure.figure, figure.verdict])).toEqual([
      ['pass_rate', 'unchanged'],
      ['tokens', 'regressed'],
      ['usd', 'improved'],
    ])
    expect(test.verdict).toBe('regressed')
  })

  it('is compared over the runs that have it, and left out when a side has none', () => {
    const test = compareOne([...lower, { passed: false }], [{ passed: true, turns: 3 }, ...higher, { passed: true, tokens: Number.NaN }])
    expect(test.figures.map((figure) => [figure.figure, figure.baseline.n, figure.current.n])).toEqual([
      ['pass_rate', 11, 12],
      ['tokens', 10, 10],
    ])
  })
})

describe('the comparison', () => {
  it('lists the tests only one side ran, and puts together the runs of a test listed twice', () => {
    const runs = seededRuns(0.9, 5, 1)
    const baseline: TestRuns[] = [
      { id: 'b > kept', runs },
      { id: 'a > removed', runs },
      { id: 'b > kept', runs },
    ]
    const current: TestRuns[] = [
      { id: 'c > new', runs },
      { id: 'b > kept', runs },
    ]
    const comparison = compareTests(baseline, current)
    expect(comparison).toMatchObject({ confidence: 0.95, correction: 'benjamini-hochberg', onlyInBaseline: ['a > removed'], onlyInCurrent: ['c > new'] })
    expect(comparison.tests.map((test) => [test.id, test.figures[0]?.baseline.n, test.figures[0]?.current.n])).toEqual([['b > kept', 10, 5]])
  })

  it('adjusts the p-values over every figure of every test: one drop among many unchanged tests is held to a stricter bar', () => {
    const baseline = seededRuns(0.95, 20, 19)
    const current = seededRuns(0.6, 20, 1019)
    const steady = Array.from({ length: 4 }, (_, i): [TestRuns, TestRuns] => [
      { id: `steady ${i}`, runs: seededRuns(0.9, 20, i) },
      { id: `steady ${i}`, runs: seededRuns(0.9, 20, i + 100) },
    ])
    const comparison = compareTests(
      [{ id: 'dropping', runs: baseline }, ...steady.map(([b]) => b)],
      [{ id: 'dropping', runs: current }, ...steady.map(([, c]) => c)],
    )
    const dropping = comparison.tests.find((test) => test.id === 'dropping')
    // Alone, p = 0.0197 is significant at 95%; the smallest of five p-values is multiplied by five.
    expect(dropping?.figures[0]).toMatchObject({ verdict: 'unchanged', reason: 'within noise' })
    expect(dropping?.figures[0]?.adjustedP).toBeCloseTo(0.019656019656019656 * 5, 12)
  })

  it('leaves out of the correction the figures that vary in no run (tests that always passed, tokens the same every run): the drop among them is regressed', () => {
    const always = (passed: boolean): Run[] => Array.from({ length: 20 }, () => ({ passed, tokens: 500 }))
    const comparison = compareTests(
      [{ id: 'dropping', runs: seededRuns(0.95, 20, 19) }, ...['a', 'b', 'c', 'd'].map((id) => ({ id, runs: always(true) }))],
      [{ id: 'dropping', runs: seededRuns(0.6, 20, 1019) }, ...['a', 'b', 'c', 'd'].map((id) => ({ id, runs: always(true) }))],
    )
    expect(comparison.tests.map((test) => [test.id, test.verdict])).toEqual([
      ['a', 'unchanged'],
      ['b', 'unchanged'],
      ['c', 'unchanged'],
      ['d', 'unchanged'],
      ['dropping', 'regressed'],
    ])
    const drop = comparison.tests[4]?.figures[0]
    expect(drop?.p).toBeCloseTo(0.019656019656, 12)
    expect(drop?.adjustedP).toBe(drop?.p)
    expect(comparison.tests[0]?.figures.map((figure) => [figure.figure, figure.p, figure.adjustedP])).toEqual([
      ['pass_rate', 1, 1],
      ['tokens', 1, 1],
    ])
  })

  it('corrects each figure apart: a pass rate is not held to a stricter bar because durations were measured too', () => {
    const noisy = (seed: number): Run[] => seededRuns(0.95, 20, seed).map((run, i) => ({ ...run, duration_ms: 1000 + ((i * 7919 + seed) % 200) }))
    const comparison = compareTests(
      [{ id: 'dropping', runs: noisy(19) }],
      [{ id: 'dropping', runs: seededRuns(0.6, 20, 1019).map((run, i) => ({ ...run, duration_ms: 1000 + ((i * 104_729) % 200) })) }],
    )
    const [passRate, duration] = comparison.tests[0]?.figures ?? []
    expect([passRate?.figure, passRate?.adjustedP === passRate?.p, passRate?.verdict, duration?.figure]).toEqual([
      'pass_rate',
      true,
      'regressed',
      'duration_ms',
    ])
    expect(duration?.adjustedP).toBe(duration?.p)
  })

  it('takes a confidence: at 99%, the 95% to 60% drop at 20 runs is within noise', () => {
    expect(compareOne(seededRuns(0.95, 20, 19), seededRuns(0.6, 20, 1019), 0.99).figures[0]).toMatchObject({ verdict: 'unchanged', confidence: 0.99 })
  })

  it.each([0, 1, 95, Number.NaN, '0.95'])('refuses the confidence %s with a UsageError that says what to give', (confidence) => {
    let thrown: unknown
    try {
      compareTests([], [], { confidence: confidence as number })
    } catch (error) {
      thrown = error
    }
    expect(isUsageError(thrown)).toBe(true)
    expect((thrown as Error).message).toBe(`confidence must be a number between 0 and 1 such as 0.95 (95%), not ${String(confidence)}.`)
  })
})
