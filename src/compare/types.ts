/**
 * What a comparison reads and what it answers. The input is deliberately small: a results file,
 * a ledger query or a test's hand-made samples are mapped onto it by whoever reads them.
 */

/** One run of one test: whether it passed, and the figures measured when they are known. */
export interface Run {
  passed: boolean
  /** Tokens the run used (all roles added up, or whichever the caller chose: the same on both sides). */
  tokens?: number
  /** Dollars the run spent. */
  usd?: number
  duration_ms?: number
  /** Model calls (turns) of the run. */
  turns?: number
  tool_calls?: number
  /** The git commit the run was made on; runs of one commit with different outcomes make a test flaky. */
  commit?: string
}

/** A test and its runs on one side of the comparison. */
export interface TestRuns {
  /** The test's file and full name (`test/refund.test.ts > refund agent > refunds order 42`): matched exactly across sides and in the quarantine file. */
  id: string
  runs: readonly Run[]
}

/** The numeric figures compared by a rank test, each "higher is worse". */
export const NUMERIC_FIGURES = ['tokens', 'usd', 'duration_ms', 'turns', 'tool_calls'] as const
export type NumericFigure = (typeof NUMERIC_FIGURES)[number]
export type Figure = 'pass_rate' | NumericFigure

export type Verdict = 'regressed' | 'improved' | 'unchanged'

/**
 * Why a figure got its verdict: `significant` (regressed or improved), `within noise` (not
 * significant), `too few runs` (not significant, and with these numbers of runs no outcome could be).
 */
export type VerdictReason = 'significant' | 'within noise' | 'too few runs'

/** How to compare. */
export interface CompareOptions {
  /**
   * The confidence of every verdict, between 0 and 1: a figure is `regressed` or `improved` when its
   * p-value, adjusted for the number of figures compared, is at most `1 - confidence`.
   * @default 0.95
   */
  confidence?: number
}

/** A side's pass rate. */
export interface RateSummary {
  passed: number
  n: number
  /** `passed / n`. */
  rate: number
}

/** A side's median of one figure, over the runs that have it. */
export interface MedianSummary {
  median: number
  n: number
}

/** The smallest equal number of runs per side at which the figure's observed effect would be significant. */
export interface RunsNeeded {
  baseline: number
  current: number
}

interface FigureComparisonBase {
  verdict: Verdict
  reason: VerdictReason
  /** The p-value of the test, before the correction for multiple comparisons. */
  p: number
  /** The p-value adjusted by Benjamini–Hochberg over every figure of every test compared (note 063). */
  adjustedP: number
  confidence: number
  /** Present when the figure is unchanged, its observed effect is not zero, and some number of runs up to 1,000 per side would make it significant. */
  needs?: RunsNeeded
}

/** The pass rate of a test, compared by Fisher's exact test. */
export interface PassRateComparison extends FigureComparisonBase {
  figure: 'pass_rate'
  test: 'fisher-exact'
  baseline: RateSummary
  current: RateSummary
  /** `current.rate - baseline.rate`: negative is worse. */
  effect: number
  /** Newcombe's hybrid score interval (Wilson intervals of each side) for `effect`, at `confidence`. */
  interval: { low: number; high: number }
}

/** A numeric figure of a test, compared by the Mann–Whitney U test. */
export interface MedianComparison extends FigureComparisonBase {
  figure: NumericFigure
  /** `exact` for small samples without ties, `asymptotic` otherwise, as SciPy's `method='auto'` chooses. */
  test: 'mann-whitney-u-exact' | 'mann-whitney-u-asymptotic'
  baseline: MedianSummary
  current: MedianSummary
  /** `current.median - baseline.median`: positive is worse. */
  effect: number
}

export type FigureComparison = PassRateComparison | MedianComparison

/** One test's figures; its verdict is `regressed` when any figure regressed, else `improved` when any improved. */
export interface TestComparison {
  id: string
  verdict: Verdict
  /** Pass rate first, then the numeric figures both sides have, in the order of `NUMERIC_FIGURES`. */
  figures: FigureComparison[]
}

export interface Comparison {
  confidence: number
  correction: 'benjamini-hochberg'
  /** The tests both sides ran, sorted by id. */
  tests: TestComparison[]
  /** Tests only the baseline ran (removed or renamed), sorted. */
  onlyInBaseline: string[]
  /** Tests only the current side ran (new or renamed), sorted. */
  onlyInCurrent: string[]
}
