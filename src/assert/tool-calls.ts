/**
 * The flat view of a trace most assertions need: every tool call in order
 * (turns by index, calls in list order, text-only turns contributing nothing),
 * each with its turn, its position in that flat list and its results.
 */
import type { ToolCall, ToolResult, Trace, Turn } from '../trace/types.js'

export interface CallRecord {
  call: ToolCall
  turn: Turn
  /** 0-based position in the flat list of all tool calls of the trace. */
  position: number
  /** Results recorded for this call in its turn (usually one; none when it never answered). */
  results: ToolResult[]
}

export function flattenToolCalls(trace: Trace): CallRecord[] {
  const records: CallRecord[] = []
  for (const turn of trace.turns) {
    for (const call of turn.llm_call.tool_calls) {
      const results = turn.tool_results.filter((result) => result.call_id === call.call_id)
      records.push({ call, turn, position: records.length, results })
    }
  }
  return records
}

export function toolNames(trace: Trace): string[] {
  return trace.turns.flatMap((turn) => turn.llm_call.tool_calls.map((call) => call.name))
}

export function callsOf(trace: Trace, tool: string): CallRecord[] {
  return flattenToolCalls(trace).filter((record) => record.call.name === tool)
}
