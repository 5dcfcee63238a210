/**
 * The golden normal form: what a baseline file holds, so that recording the
 * same behaviour twice writes the same bytes and a diff in review shows only
 * behaviour.
 *
 * - trace_id is "golden" and a parent id "golden-parent";
 * - times are 0.0 and durations 0;
 * - call ids are renumbered call_1, call_2, ... in order of appearance (both
 *   generated ids and provider ids, which also change on every real run);
 * - stacks are dropped from recorded errors (they hold machine paths);
 * - grade is dropped (a verdict on one run, not behaviour);
 * - `replayed` marks, `resumed_from` and `replayed_steps` are dropped (how the
 *   run was answered, not what it did: a replayed run matches a golden
 *   recorded live);
 * - the marks of injected faults are dropped (`injected`, `injected_results`):
 *   a golden holds what the agent did, and the same failure from a real
 *   tool is the same behaviour;
 * - a run of a run set (`repeat`) is named as its run set, whose golden it
 *   shares, and the `repeat` field is dropped;
 * - `variants` (the other accepted variants a golden file holds) is dropped:
 *   each variant is normalised on its own (see variants.ts);
 * - `golden` (the run asked for its golden) is dropped: a fact about the
 *   run, not behaviour;
 * - a conversation (`conversation()` of reagent-flow/simulate) is kept, who
 *   said what being behaviour, with the id of the simulated user's run
 *   (`user_trace_id`) as "golden-user" (decision note 072);
 * - every model call holds its whole message list: a `messages_base` (how a
 *   run file stores a history shared with an earlier call, decision note 016)
 *   is expanded, and the golden writer never writes one (trace-text.ts). A
 *   golden is read in review, and the same behaviour must give the same bytes
 *   whichever form the run it came from was stored in (decision note 049);
 * - the tools offered (`tool_sets`, each call's `tool_set`) are dropped: tool
 *   contracts own them (docs/contracts.md), and a golden must not churn when
 *   a tool's description is reworded;
 * - keys sorted, 2-space indent, trailing newline; times written as floats.
 */
import { expandMessages } from '../trace/messages.js'
import { stringifyStable } from '../trace/serialize.js'
import type { JsonValue, LlmCall, RecordedError, Trace, Turn } from '../trace/types.js'
import { asGoldenIdentity } from './identity.js'

export const GOLDEN_TRACE_ID = 'golden'
export const GOLDEN_PARENT_ID = 'golden-parent'
/** The simulated user's run of a conversation, in a golden: its real id changes on every recording. */
const GOLDEN_USER_ID = 'golden-user'

function withoutStack(error: RecordedError): RecordedError {
  return { name: error.name, message: error.message }
}

/** Returns the golden normal form of `trace`; the input is not modified. */
export function normalizeTrace(trace: Trace): Trace {
  const ids = new Map<string, string>()
  const idOf = (callId: string): string => {
    let id = ids.get(callId)
    if (id === undefined) ids.set(callId, (id = `call_${ids.size + 1}`))
    return id
  }

  const turns = trace.turns.map((turn): Turn => {
    const llmCall: LlmCall = {
      ...turn.llm_call,
      tool_calls: turn.llm_call.tool_calls.map((call) => ({ ...call, call_id: idOf(call.call_id), timestamp: 0 })),
      timestamp: 0,
    }
    if (llmCall.latency_ms !== undefined) llmCall.latency_ms = 0
    delete llmCall.replayed
    if (llmCall.tool_set !== undefined) delete llmCall.tool_set
    if (llmCall.error !== undefined) llmCall.error = withoutStack(llmCall.error)
    const out: Turn = {
      ...turn,
      llm_call: llmCall,
      tool_results: turn.tool_results.map((result) => ({ ...result, call_id: idOf(result.call_id), duration_ms: 0 })),
      duration_ms: 0,
    }
    // Rare, so deleted where present rather than copied around on every turn.
    if (llmCall.injected !== undefined) delete llmCall.injected
    if (out.injected !== undefined) delete out.injected
    if (out.injected_results !== undefined) delete out.injected_results
    if (turn.unmatched_results !== undefined) {
      out.unmatched_results = turn.unmatched_results.map((u) => ({ ...u, call_id: idOf(u.call_id) }))
    }
    return out
  })
  // A trace parsed from a file without the loader (a run file, an older golden) may still say `messages_base`.
  expandMessages(turns, `trace "${trace.name}"`)

  const {
    grade: _grade,
    variants: _variants,
    resumed_from: _resumedFrom,
    replayed_steps: _replayedSteps,
    golden: _golden,
    tool_sets: _toolSets,
    ...rest
  } = asGoldenIdentity(trace)
  const out: Trace = {
    ...rest,
    trace_id: GOLDEN_TRACE_ID,
    turns,
    started_at: 0,
    ended_at: trace.ended_at === null ? null : 0,
    parent_trace_id: trace.parent_trace_id == null ? null : GOLDEN_PARENT_ID,
    handoff_context: trace.handoff_context ?? null,
  }
  if (trace.error != null) out.error = withoutStack(trace.error)
  if (trace.conversation != null && trace.conversation.user_trace_id !== null) out.conversation = { ...trace.conversation, user_trace_id: GOLDEN_USER_ID }
  if (trace.orphan_results !== undefined) {
    out.orphan_results = trace.orphan_results.map(({ injected: _injected, ...r }) => ({ ...r, call_id: idOf(r.call_id), duration_ms: 0 }))
  }
  return out
}

/** Per object, the keys that hold times (written as floats for reagent-flow 0.5). */
function timeKeys(trace: Trace): WeakMap<object, ReadonlySet<string>> {
  const keys = new WeakMap<object, ReadonlySet<string>>()
  const timestamp = new Set(['timestamp'])
  keys.set(trace, new Set(['started_at', 'ended_at']))
  for (const turn of trace.turns) {
    keys.set(turn.llm_call, timestamp)
    for (const call of turn.llm_call.tool_calls) keys.set(call, timestamp)
  }
  if (trace.grade !== undefined) keys.set(trace.grade, new Set(['graded_at']))
  return keys
}

/** Sorted-key text of a trace with its times written as floats. Does not normalise. */
export function stringifyTraceStable(trace: Trace): string {
  return stringifyStable(trace as unknown as JsonValue, timeKeys(trace))
}
