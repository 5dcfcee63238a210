/**
 * A recorded trace without its clock readings (timestamps, latencies,
 * durations), for exact comparisons, and without the id of the tools each
 * call offered (tools-offered.test.ts checks those exactly).
 */
import type { Trace } from '../../../src/entries/index.js'

export function turnsOf(trace: Trace): unknown[] {
  return trace.turns.map((turn) => {
    const { timestamp: _t, latency_ms: _l, tool_set: _s, tool_calls, error, ...call } = turn.llm_call
    return {
      ...call,
      tool_calls: tool_calls.map(({ timestamp: _ts, ...rest }) => rest),
      ...(error === undefined ? {} : { error: `${error.name}: ${error.message}` }),
      tool_results: turn.tool_results.map(({ duration_ms: _d, ...rest }) => rest),
    }
  })
}
