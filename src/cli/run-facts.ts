/**
 * Facts about one run that several commands print: goal, full name, final
 * answer, tokens (status, duration and tool calls are in trace/facts.ts).
 */
import { sumTokens } from '../trace/tokens.js'
import type { TraceFields } from '../trace/top-level.js'
import type { Trace } from '../trace/types.js'

/** `metadata.goal` when it is text. */
export function goalOf(fields: TraceFields): string | null {
  const goal = fields.metadata.goal
  return typeof goal === 'string' ? goal : null
}

/** Inside vitest, the run's test key (`<test name>`, or `<test name> > <session name>`); null outside. */
export function testKeyOf(fields: TraceFields): string | null {
  const key = (fields as { test_key?: unknown }).test_key
  return typeof key === 'string' && key !== '' ? key : null
}

/** The name a run is shown and found by: inside vitest its test key, else its trace name. */
export function fullNameOf(fields: TraceFields): string {
  return testKeyOf(fields) ?? fields.name
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
