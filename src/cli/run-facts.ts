/**
 * Facts about one run that several commands print: goal, final answer,
 * tokens (status, duration and tool calls are in trace/facts.ts).
 */
import { sumTokens } from '../trace/tokens.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'

/** `metadata.goal` when it is text. */
export function goalOf(fields: TraceFields): string | null {
  const goal = fields.metadata.goal
  return typeof goal === 'string' ? goal : null
}

export { finalResponse } from '../trace/facts.js'

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
