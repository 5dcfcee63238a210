/**
 * Type test of what `src/compare` hands the CLI and the reports, checked by `npm run typecheck`, never
 * run: the input a results file is mapped onto, and a comparison's shape, narrowed by its figure.
 */
import { expectTypeOf } from 'vitest'
import {
  type CompareOptions,
  type Comparison,
  type Figure,
  type FigureComparison,
  type MedianComparison,
  type MedianSummary,
  type NUMERIC_FIGURES,
  type NumericFigure,
  type PassRateComparison,
  type QuarantineEntry,
  type QuarantineSplit,
  type RateSummary,
  type Run,
  type RunsNeeded,
  type TestComparison,
  type Verdict,
  type VerdictReason,
  compareTests,
  splitQuarantined,
} from '../../src/compare/index.js'

// A run needs only its outcome; every figure is optional, a commit too.
expectTypeOf<{ passed: true }>().toExtend<Run>()
expectTypeOf<Run>().toEqualTypeOf<{
  passed: boolean
  tokens?: number
  usd?: number
  duration_ms?: number
  turns?: number
  tool_calls?: number
  commit?: string
}>()
expectTypeOf<CompareOptions>().toEqualTypeOf<{ confidence?: number }>()

// The figures: the pass rate and the numeric ones, listed in their order.
expectTypeOf<(typeof NUMERIC_FIGURES)[number]>().toEqualTypeOf<NumericFigure>()
expectTypeOf<Figure>().toEqualTypeOf<'pass_rate' | 'tokens' | 'usd' | 'duration_ms' | 'turns' | 'tool_calls'>()
expectTypeOf<Verdict>().toEqualTypeOf<'regressed' | 'improved' | 'unchanged'>()
expectTypeOf<VerdictReason>().toEqualTypeOf<'significant' | 'within noise' | 'too few runs'>()

// A comparison narrowed by its figure: a pass rate has rates and an interval, a numeric figure medians.
expectTypeOf(compareTests).returns.toEqualTypeOf<Comparison>()
expectTypeOf<Comparison['tests']>().toEqualTypeOf<TestComparison[]>()
expectTypeOf<TestComparison['figures']>().toEqualTypeOf<FigureComparison[]>()
expectTypeOf<Extract<FigureComparison, { figure: 'pass_rate' }>>().toEqualTypeOf<PassRateComparison>()
expectTypeOf<Exclude<FigureComparison, { figure: 'pass_rate' }>>().toEqualTypeOf<MedianComparison>()
expectTypeOf<PassRateComparison['baseline']>().toEqualTypeOf<RateSummary>()
expectTypeOf<PassRateComparison['interval']>().toEqualTypeOf<{ low: number; high: number }>()
expectTypeOf<MedianComparison['current']>().toEqualTypeOf<MedianSummary>()
expectTypeOf<FigureComparison['needs']>().toEqualTypeOf<RunsNeeded | undefined>()

// The quarantine splits whatever has an id, keeping its type.
expectTypeOf(splitQuarantined<TestComparison>).returns.toEqualTypeOf<QuarantineSplit<TestComparison>>()
expectTypeOf<QuarantineSplit<TestComparison>['quarantined'][number]['entry']>().toEqualTypeOf<QuarantineEntry>()
