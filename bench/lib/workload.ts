/** The workloads the suites share: the same turns for ours and the baselines. */
import { Session, type Trace } from 'reagent-flow'

export const TURNS = 10_000

/** Records `turns` turns of an LLM call with one tool call plus its result. */
export function recordTurns(s: Session, turns = TURNS): void {
  for (let i = 0; i < turns; i++) {
    s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: `query ${i}`, limit: 5 } }], model: 'gpt-4o' })
    s.logToolResult('search', { result: { hits: i, top: 'doc' } })
  }
}

/** The inputs of `recordTurns`, pushed into an array as they are: the cheapest possible "recording". */
export function pushInputs(turns = TURNS): unknown[] {
  const out: unknown[] = []
  for (let i = 0; i < turns; i++) {
    out.push({ toolCalls: [{ name: 'search', arguments: { q: `query ${i}`, limit: 5 } }], model: 'gpt-4o' })
    out.push({ result: { hits: i, top: 'doc' } })
  }
  return out
}

/** The same turns built by hand in trace shape, with a fixed time: the data we store, minus the recorder's logic. */
export function pushTraceShaped(turns = TURNS): unknown[] {
  const out: unknown[] = []
  const timestamp = 1_796_041_768.1
  for (let i = 0; i < turns; i++) {
    const callId = `rf_${i}`
    out.push({
      index: i,
      llm_call: {
        messages: null,
        response_text: null,
        tool_calls: [{ name: 'search', arguments: { q: `query ${i}`, limit: 5 }, call_id: callId, timestamp }],
        model: 'gpt-4o',
        token_usage: null,
        timestamp,
      },
      tool_results: [{ call_id: callId, result: { hits: i, top: 'doc' }, error: null, duration_ms: 0 }],
      duration_ms: 0,
    })
  }
  return out
}

/** A finished 10k-turn trace, recorded in memory. */
export function bigTrace(turns = TURNS): Trace {
  const s = new Session('bench-10k', { save: false })
  recordTurns(s, turns)
  s.trace.ended_at = s.trace.started_at + 1.5
  return s.trace
}
