/**
 * The summary of a run set: per run its status, verdict, tokens, cost and
 * duration, and the totals and means over the set. Cost comes from the one
 * price table (src/trace/prices.ts).
 */
import { estimateCost } from '../trace/cost.js'
import { durationMs } from '../trace/facts.js'
import { defaultPriceTable } from '../storage/index.js'
import { sumTokens } from '../trace/tokens.js'
import type { TraceStatus } from '../trace/types.js'
import type { RunVerdict } from './verdicts.js'
import type { Session } from '../session/session.js'

/** One run of a run set, in numbers. */
export interface RunSetRow {
  /** The run's number in its set, from 1. */
  index: number
  name: string
  status: TraceStatus
  /** Whether it passed the check; null when the summary was made without one. */
  passed: boolean | null
  /** Its first failing assertion, in one line; null when it passed or there was no check. */
  failure: string | null
  /** Input and output tokens; null when no call recorded usage. */
  tokens: number | null
  /** USD by the price table; null when no call could be priced. */
  usd: number | null
  durationMs: number | null
  /** Its trace file; null when it was not written (`save: false`). */
  path: string | null
}

export interface RunSetSummary {
  /** The run set's id, shared by its traces' `repeat.id`. */
  id: string
  name: string
  runs: number
  /** How many runs passed the check, and their share; null without a check. */
  passed: number | null
  passRate: number | null
  /** Over the runs that recorded usage. */
  tokens: { total: number; mean: number | null }
  /** Over the runs that could be priced. */
  usd: { total: number; mean: number | null }
  /** Over the runs that ended. */
  durationMs: { mean: number | null; max: number | null }
  perRun: RunSetRow[]
}

function rowOf(run: Session, index: number, verdict: RunVerdict | undefined): RunSetRow {
  const trace = run.trace
  const tokens = sumTokens(trace)
  const cost = estimateCost(trace, defaultPriceTable())
  return {
    index,
    name: trace.name,
    status: run.status,
    passed: verdict === undefined ? null : verdict.passed,
    failure: verdict?.failure ?? null,
    tokens: tokens.measuredTurns === 0 ? null : tokens.input + tokens.output,
    usd: cost.priced.length === 0 ? null : cost.usd,
    durationMs: durationMs(trace),
    path: run.path ?? null,
  }
}

function totalOf(values: ReadonlyArray<number | null>): { total: number; mean: number | null } {
  const known = values.filter((value): value is number => value !== null)
  const total = known.reduce((sum, value) => sum + value, 0)
  return { total, mean: known.length === 0 ? null : total / known.length }
}

export function summarize(id: string, name: string, runs: readonly Session[], verdicts: readonly RunVerdict[] | undefined): RunSetSummary {
  const perRun = runs.map((run, i) => rowOf(run, i + 1, verdicts?.[i]))
  const durations = perRun.map((row) => row.durationMs).filter((value): value is number => value !== null)
  const passed = verdicts === undefined ? null : verdicts.filter((verdict) => verdict.passed).length
  return {
    id,
    name,
    runs: runs.length,
    passed,
    passRate: passed === null || runs.length === 0 ? null : passed / runs.length,
    tokens: totalOf(perRun.map((row) => row.tokens)),
    usd: totalOf(perRun.map((row) => row.usd)),
    durationMs: { mean: totalOf(durations).mean, max: durations.length === 0 ? null : Math.max(...durations) },
    perRun,
  }
}
