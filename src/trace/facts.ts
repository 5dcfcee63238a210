/** The basic facts of a run that reports, the CLI, the ledger and matchers all show: status, duration, tool calls, final answer. */
import type { Trace, TraceStatus } from './types.js'

/** Files written by reagent-flow 0.5 have no status: a run that was written at all completed. */
export function statusOf(trace: Pick<Trace, 'status'>): TraceStatus {
  return trace.status ?? 'completed'
}

/** From start to end, to the microsecond (epoch-second floats carry noise below it); null while the run has no end. */
export function durationMs(trace: Pick<Trace, 'started_at' | 'ended_at'>): number | null {
  return trace.ended_at === null ? null : Math.max(0, Math.round((trace.ended_at - trace.started_at) * 1_000_000) / 1000)
}

/** How many tool calls the model made over all turns. */
export function countToolCalls(trace: Pick<Trace, 'turns'>): number {
  return trace.turns.reduce((n, turn) => n + turn.llm_call.tool_calls.length, 0)
}

/** The model's last text answer, or null when it gave none. */
export function finalResponse(trace: Pick<Trace, 'turns'>): string | null {
  for (let i = trace.turns.length - 1; i >= 0; i--) {
    const text = trace.turns[i]!.llm_call.response_text
    if (text !== null && text !== undefined) return text
  }
  return null
}
