export { compareTests } from './compare-tests.js'
export { describeVerdict } from './describe-verdict.js'
export { findFlaky } from './find-flaky.js'
export { QUARANTINE_FILE, loadQuarantine, parseQuarantine, splitQuarantined } from './quarantine.js'
export { NUMERIC_FIGURES } from './types.js'

export type { FlakyTest } from './find-flaky.js'
export type { QuarantineEntry, QuarantineSplit } from './quarantine.js'
export type {
  Comparison,
  CompareOptions,
  Figure,
  FigureComparison,
  MedianComparison,
  MedianSummary,
  NumericFigure,
  PassRateComparison,
  RateSummary,
  Run,
  RunsNeeded,
  TestComparison,
  TestRuns,
  Verdict,
  VerdictReason,
} from './types.js'
