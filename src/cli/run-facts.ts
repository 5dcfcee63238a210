/** Facts about one run that several commands print: status, goal, duration, counts. */
import { sumTokens } from '../trace/tokens.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace, TraceStatus } from '../trace/types.js'

/** Files written by reagent-flow 0.5 have no status: a run that was written at all completed. */
export function statusOf(fields: TraceFields): TraceStatus {
  return fields.status ?? 'completed'
}

/** `metadata.goal` when it is text. */
export function goalOf(fields: TraceFields): string | null {
  const goal = fields.metadata.goal
  return typeof goal === 'string' ? goal : null
}

/** From start to end, to the microsecond (epoch-second floats carry noise below it); null while the run has no end. */
export function durationMs(fields: TraceFields): number | null {
  return fields.ended_at === null ? null : Math.max(0, Math.round((fields.ended_at - fields.started_at) * 1_000_000) / 1000)
}

export function toolCallCount(trace: Trace): number {
  return trace.turns.reduce((n, turn) => n + turn.llm_call.tool_calls.length, 0)
}

/** The model's last text answer. */
export function finalResponse(trace: Trace): string | null {
  for (let i = trace.turns.length - 1; i >= 0; i--) {
    const text = trace.turns[i]!.llm_call.response_text
    if (text !== null && text !== undefined) return text
  }
  return null
}

export interface TokenTotals {
  input: number
  output: number
  total: number
  /** How many turns recorded token usage. */
  measured_turns: number
}

/** The run's tokens, or null when no turn recorded any. */
export function tokenTotals(trace: Trace): TokenTotals | null {
  const { input, output, measuredTurns } = sumTokens(trace)
  return measuredTurns === 0 ? null : { input, output, total: input + output, measured_turns: measuredTurns }
}
