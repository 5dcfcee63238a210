/**
 * A trace as one row of the Runs page: the facts the CLI shows (status,
 * duration, turns, tool calls, tokens), its cost from the one price table,
 * and the marks later work adds to traces when they are there (replayed
 * calls, injected faults, a resumed run, test file and test name).
 */
import { estimateCost, type ModelCost } from '../trace/cost.js'
import { countToolCalls, durationMs, statusOf } from '../trace/facts.js'
import { sumTokens } from '../trace/tokens.js'
import type { Trace } from '../trace/types.js'
import type { RunSummary } from './types.js'

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

function countErrors(trace: Trace): number {
  let errors = 0
  for (const turn of trace.turns) {
    if (turn.llm_call.error !== undefined) errors += 1
    for (const result of turn.tool_results) if (result.error !== null) errors += 1
  }
  return errors
}

function countMarks(trace: Trace): { replayed: number; injected: number } {
  let replayed = 0
  let injected = 0
  for (const turn of trace.turns) {
    if (turn.llm_call.replayed === true) replayed += 1
    if (turn.injected === true || turn.llm_call.injected === true) injected += 1
  }
  return { replayed, injected }
}

/** The row of `trace`, read from the file `id`; `golden` and `failing` are filled in by the index, which knows the goldens. */
export function summarizeTrace(trace: Trace, id: string, kind: RunSummary['kind'], prices: ReadonlyMap<string, ModelCost>): RunSummary {
  const tokens = sumTokens(trace)
  const cost = estimateCost(trace, prices)
  const marks = countMarks(trace)
  const unpriced = cost.skipped.filter((reason) => reason.includes('no price')).length
  return {
    id,
    kind,
    name: trace.name,
    trace_id: trace.trace_id,
    status: statusOf(trace),
    interruption_reason: trace.interruption_reason ?? null,
    error: trace.error ? { name: trace.error.name, message: trace.error.message } : null,
    started_at: trace.started_at,
    ended_at: trace.ended_at,
    duration_ms: durationMs(trace),
    turns: trace.turns.length,
    tool_calls: countToolCalls(trace),
    errors: countErrors(trace),
    tokens: tokens.measuredTurns === 0 ? null : { input: tokens.input, output: tokens.output, total: tokens.input + tokens.output },
    cost_usd: cost.priced.length === 0 ? null : cost.usd,
    unpriced_turns: unpriced,
    replayed_calls: marks.replayed,
    injected_faults: marks.injected,
    resumed_from: text(trace.resumed_from),
    grade: trace.grade ?? null,
    goal: text(trace.metadata.goal),
    test_file: text(trace.test_file),
    test_name: text(trace.test_name),
    parent_trace_id: trace.parent_trace_id ?? null,
    session_id: trace.session_id ?? null,
    user_id: trace.user_id ?? null,
    golden: null,
    failing: false,
  }
}

/** Whether a row counts as failing: the run failed or did not finish, was graded fail, or differs from its golden. */
export function isFailing(summary: RunSummary): boolean {
  if (summary.kind === 'golden') return false
  return (
    summary.status === 'failed' ||
    summary.status === 'cancelled' ||
    summary.status === 'interrupted' ||
    summary.grade?.grade === 'fail' ||
    summary.golden?.state === 'differs'
  )
}
