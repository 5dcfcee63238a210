/** The basic facts of a run that reports, the CLI, the ledger and matchers all show: status, duration, tool calls, final answer. */
import type { JsonObject, Trace, TraceStatus } from './types.js'

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

/** One tool result that came back with an error, with the call it answered (when the trace has it). */
export interface ToolErrorFact {
  /** The turn the result is in; null for a result logged before any LLM call (`orphan_results`). */
  turn: number | null
  tool: string
  call_id: string
  /** The arguments of the call; null when the result matched no recorded call. */
  arguments: JsonObject | null
  error: string
}

/** Every tool result with an error, in order: those of the turns, then those logged before any turn. */
export function toolErrors(trace: Pick<Trace, 'turns' | 'orphan_results'>): ToolErrorFact[] {
  const errors: ToolErrorFact[] = []
  for (const turn of trace.turns) {
    for (const result of turn.tool_results) {
      if (result.error === null) continue
      const call = turn.llm_call.tool_calls.find((c) => c.call_id === result.call_id)
      const tool = call?.name ?? turn.unmatched_results?.find((r) => r.call_id === result.call_id)?.name ?? 'a tool'
      errors.push({ turn: turn.index, tool, call_id: result.call_id, arguments: call?.arguments ?? null, error: result.error })
    }
  }
  for (const orphan of trace.orphan_results ?? []) {
    if (orphan.error !== null) errors.push({ turn: null, tool: orphan.name, call_id: orphan.call_id, arguments: null, error: orphan.error })
  }
  return errors
}

/** How many of the model's tool calls got a result with an error (a call retried into two errors counts once). */
export function countFailedToolCalls(trace: Pick<Trace, 'turns'>): number {
  let failed = 0
  for (const turn of trace.turns) {
    for (const call of turn.llm_call.tool_calls) {
      if (turn.tool_results.some((result) => result.call_id === call.call_id && result.error !== null)) failed++
    }
  }
  return failed
}
