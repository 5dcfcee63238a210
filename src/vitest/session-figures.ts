/**
 * What one session of a test recorded, in numbers, as its test scope keeps
 * it in the task's meta for the reporter's results file (reporter.ts): made
 * in the worker when the session closes, from the trace in memory, so the
 * main process never reads a trace. Only inside vitest (a test scope).
 */
import { defaultPriceTable } from '../storage/index.js'
import { estimateCost } from '../trace/cost.js'
import { countToolCalls, durationMs } from '../trace/facts.js'
import { sumTokens } from '../trace/tokens.js'
import type { Trace, TraceStatus } from '../trace/types.js'

export interface SessionFigures {
  trace_id: string
  /** The session it was opened inside (a sub-agent's parent), if any. */
  parent_trace_id: string | null
  name: string
  status: TraceStatus
  /** Its trace file, absolute; null when it was not written. */
  path: string | null
  /** Input and output tokens; null when no model call recorded usage. */
  tokens: number | null
  /** USD by the price table; null when no model call could be priced. */
  usd: number | null
  turns: number
  tool_calls: number
  duration_ms: number | null
}

/** USD by the price table; null when no call could be priced, or when the price file (REAGENT_PRICES) cannot be read: the run still closes (its cost is said wherever the table is used). */
function usdOf(trace: Trace): number | null {
  try {
    const cost = estimateCost(trace, defaultPriceTable())
    return cost.priced.length === 0 ? null : cost.usd
  } catch {
    return null
  }
}

export function figuresOf(trace: Trace, path: string | undefined): SessionFigures {
  const tokens = sumTokens(trace)
  return {
    trace_id: trace.trace_id,
    parent_trace_id: typeof trace.parent_trace_id === 'string' ? trace.parent_trace_id : null,
    name: trace.name,
    status: trace.status ?? 'completed',
    path: path ?? null,
    tokens: tokens.measuredTurns === 0 ? null : tokens.input + tokens.output,
    usd: usdOf(trace),
    turns: trace.turns.length,
    tool_calls: countToolCalls(trace),
    duration_ms: durationMs(trace),
  }
}
