/**
 * Trace format "1", as written by reagent-flow 0.5 (Python) and by us.
 *
 * Field names are snake_case because these objects *are* the file: `JSON.parse`
 * of a trace file is a `Trace`. The schema in `trace.schema.json` is the
 * contract; these types mirror it.
 *
 * Compatibility rule: Python builds ToolCall, ToolResult and Message with
 * `**dict`, so those three carry exactly the keys below and nothing else.
 * Trace, Turn and LlmCall may carry extra keys (ours are marked "ours").
 */

import type { JsonObject, JsonValue } from '../base/json.js'

export type { JsonValue, JsonObject } from '../base/json.js'

/** Epoch seconds as a float, as Python's `time.time()`. */
export type EpochSeconds = number

export interface Message {
  role: string
  content: JsonValue
}

export interface ToolCall {
  name: string
  arguments: JsonObject
  call_id: string
  timestamp: EpochSeconds
}

export interface ToolResult {
  call_id: string
  result: JsonValue
  error: string | null
  duration_ms: number
}

/**
 * Token counts of one LLM call, normalised to `input_tokens`/`output_tokens`.
 * Provider extras (cache tokens, reasoning tokens, details) are kept as given.
 */
export interface TokenUsage {
  input_tokens?: number
  output_tokens?: number
  total_tokens?: number
  [extra: string]: JsonValue | undefined
}

/** An error recorded on an LLM call (the API refused, the stream broke). Ours. */
export interface RecordedError {
  name: string
  message: string
  stack?: string
}

export interface LlmCall {
  messages: Message[] | null
  response_text: string | null
  tool_calls: ToolCall[]
  model: string | null
  token_usage: TokenUsage | null
  timestamp: EpochSeconds
  /** Ours: wall time of the model call. */
  latency_ms?: number
  /** Ours: the provider's finish / stop reason. */
  stop_reason?: string
  /** Ours: who served the call ("openai", "anthropic", an AI SDK or LangChain model's provider). */
  provider?: string
  /** Ours: the call was answered from a recording or a resumed run, not by the model (its token usage is the original call's). */
  replayed?: true
  /** Ours: the call failed; the error the SDK threw. */
  error?: RecordedError
  /** Ours: the call's failure was injected (the `faults` option), not the provider's. */
  injected?: true
  /** Ours: the id of the tools the request offered the model, a key of the trace's `tool_sets`; absent when it offered none. */
  tool_set?: string
  [extra: string]: unknown
}

/**
 * What a tool is: `function` (a tool the agent runs), `handoff` (a hand-over
 * to another agent, the Agents SDK's), `mcp` (a tool of an MCP server),
 * `provider` (a tool the provider runs itself: web search, code execution).
 */
export type ToolKind = 'function' | 'handoff' | 'mcp' | 'provider'

/** Ours: one tool offered to the model, normalised (JSON Schemas with their keys sorted). */
export interface ToolDefinition {
  name: string
  kind: ToolKind
  description: string | null
  /** The JSON Schema of its input, as given (a schema that is not valid JSON Schema is kept as it is); null when it has none. */
  parameters: JsonObject | null
  /** The JSON Schema of its result, when the source gives one (an MCP tool's `outputSchema`). */
  result?: JsonObject
  /** The MCP server whose tool it is. */
  server?: string
}

/** A tool result whose call could not be found; kept so nothing is lost. Ours. */
export interface UnmatchedResult {
  call_id: string
  name: string
}

export interface Turn {
  index: number
  llm_call: LlmCall
  tool_results: ToolResult[]
  duration_ms: number
  /** Ours: results in `tool_results` that matched no call, with the tool name they were logged under. */
  unmatched_results?: UnmatchedResult[]
  /** Ours: a result of this turn is a fault the `faults` option injected (never marked on the result: reagent-flow 0.5 reads it with exact keys). */
  injected?: boolean
  /** Ours: the call ids of the injected results. */
  injected_results?: string[]
  [extra: string]: unknown
}

/**
 * How a run ended, or that it has not: `active` (being recorded now),
 * `completed`, `failed` (its function threw), `cancelled` (a signal, a test
 * timeout, a user abort), `interrupted` (the process ended before the
 * session closed; recovered from its journal).
 */
export type TraceStatus = 'active' | 'completed' | 'failed' | 'cancelled' | 'interrupted'

export interface Grade {
  grade: 'pass' | 'fail'
  source: string
  reason: string | null
  ref: string | null
  graded_at: EpochSeconds
}

/** Who said a line of a conversation: the simulated user, or the agent under test. */
export type ConversationRole = 'user' | 'assistant'

/** One message of a conversation (`conversation()` in `reagent-flow/simulate`), as the trace keeps it. */
export interface ConversationMessage {
  role: ConversationRole
  content: string
  /** The exchange it belongs to: 1 for the user's first message and the agent's reply to it. */
  exchange: number
  /** The agent's replies only: the indexes of the turns the agent recorded while it produced this reply. */
  turns?: number[]
}

/**
 * How a conversation ended: `user` (the simulated user said it was done),
 * `max_turns` (it reached `maxTurns` exchanges), `stop` (the test's `stop`
 * function ended it), `error` (the user's model or the agent failed).
 */
export type ConversationEnd = 'user' | 'max_turns' | 'stop' | 'error'

/**
 * Ours: the conversation a simulated user had with the agent (`conversation()`),
 * who said what in order. A plain object of strings, numbers and arrays, so
 * reagent-flow 0.5 (which ignores top-level keys it does not know) still loads the trace.
 */
export interface ConversationRecord {
  /** The simulated user's goal; null for a scripted user without one. */
  goal: string | null
  persona: string | null
  ended_by: ConversationEnd
  /** Whether the user said its goal was met: true or false when it ended the conversation itself, else null. */
  goal_met: boolean | null
  /** Why it ended, in words (the user's reason, `"reached maxTurns (10)"`, the error's message). */
  reason: string | null
  max_turns: number
  /** Exchanges begun: a user message, with the agent's reply when it gave one. */
  exchanges: number
  /** The trace_id of the session that recorded the simulated user's model calls (`<name> > user`); null for a scripted user. */
  user_trace_id: string | null
  messages: ConversationMessage[]
}

export interface Trace {
  trace_id: string
  name: string
  turns: Turn[]
  metadata: JsonObject
  started_at: EpochSeconds
  ended_at: EpochSeconds | null
  format_version: '1'
  parent_trace_id: string | null
  handoff_context: JsonObject | null
  /** Ours. Absent in files written by reagent-flow 0.5. */
  status?: TraceStatus
  /** Ours: why a cancelled or interrupted run stopped (`"SIGINT"`, `"test timed out after 1000 ms"`, ...). */
  interruption_reason?: string
  /** Ours: what made the session fail, or null. */
  error?: RecordedError | null
  session_id?: string | null
  user_id?: string | null
  grade?: Grade
  /** Ours: tool results logged before any LLM call, so they have no turn (`injected` when one is an injected fault). */
  orphan_results?: Array<ToolResult & { name: string; injected?: boolean }>
  /** Ours: the trace_id of the failed, cancelled or interrupted run this one resumed (`resume()`). */
  resumed_from?: string
  /** Ours: how many steps of a resumed run were answered from the run it resumed. */
  replayed_steps?: number
  /**
   * Ours: the run was compared with its golden baseline, or wrote it
   * (`golden: true`, `toMatchGolden()`, `assertMatchesBaseline()`);
   * `reagent-flow approve --all` approves such runs. Never in a golden.
   */
  golden?: boolean
  /** Ours: the conversation of `conversation()` (reagent-flow/simulate), who said what, in order. */
  conversation?: ConversationRecord
  /** Ours: the tools offered to the model, each set once however many calls offered it, by its id (`ts_` + 12 hex digits; an LLM call's `tool_set`). */
  tool_sets?: Record<string, ToolDefinition[]>
  [extra: string]: unknown
}
