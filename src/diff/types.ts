/**
 * The shapes of `diffTraces()`: its options and the data it returns.
 *
 * Indices: `turn.expected` / `turn.actual` (and `call.*`) index the expected
 * and the actual trace; `path` points into the trace that holds the value,
 * which is the expected trace for a `removed` change and the actual trace
 * otherwise.
 */
import type { JsonObject, JsonValue } from '../trace/types.js'

/**
 * How the tool calls of the two traces must correspond, as in trajectory
 * evaluators (agentevals' trajectory match modes).
 *
 * - `strict`: the same calls in the same order, turn by turn.
 * - `unordered`: the same calls (as a multiset), in any order.
 * - `subset`: every actual call is one of the expected calls; some may be missing.
 * - `superset`: every expected call was made; extra actual calls are fine.
 */
export type MatchMode = 'strict' | 'unordered' | 'subset' | 'superset'

/**
 * How the arguments of two calls of a tool are compared.
 *
 * - `exact`: equal arguments.
 * - `subset`: the actual arguments are a subset of the expected ones (each
 *   actual key exists in the expected arguments with an equal value).
 * - `superset`: the actual arguments contain the expected ones; extra keys are fine.
 * - `ignore`: arguments are not compared.
 */
export type ArgsMode = 'exact' | 'subset' | 'superset' | 'ignore'

/** Your own argument comparison for a tool: true when `actual` is acceptable for `expected`. */
export type ArgsMatcher = (actual: JsonObject, expected: JsonObject) => boolean

/**
 * A tool's argument rule: a mode, a list of argument keys that must be equal
 * (dotted for nested keys; the others are not compared), or a function.
 */
export type ToolArgsRule = ArgsMode | readonly string[] | ArgsMatcher

export interface ArgsOptions {
  /** The rule for tools not named in `tools`. Default: `"exact"`. */
  default?: ArgsMode
  /**
   * Rules per tool name.
   * @example { search: 'ignore', lookup: ['order_id'], refund: (actual, expected) => actual.amount <= expected.amount }
   */
  tools?: Readonly<Record<string, ToolArgsRule>>
}

export interface DiffOptions {
  /** How calls must correspond (see `MatchMode`). Default: `"strict"`. @example { mode: 'superset' } */
  mode?: MatchMode
  /**
   * How arguments are compared: one mode for every tool, or a default with
   * rules per tool. Default: `"exact"`.
   * @example { args: { default: 'exact', tools: { search: 'ignore' } } }
   */
  args?: ArgsMode | ArgsOptions
  /**
   * What not to compare: `"arguments"`, `"results"` (results and errors),
   * `"errors"`, `"response_text"`, `"model"` (the model name of each call),
   * `"system_prompt"` (each call's system and developer messages),
   * `"tool.arg"` (argument `arg` of tool `tool`, dotted for nested keys), or
   * a JSON path into the turns, where `[*]` matches any index. Default: `[]`.
   * @example { ignore: ['lookup.request_id', 'turns[*].tool_results[*].result.fetched_at'] }
   * @example { ignore: ['model', 'system_prompt'] } // compare what the agent did, not what it was told or which model it ran on
   */
  ignore?: readonly string[]
}

/** Indices of one turn (or call) in the expected and the actual trace; null where it does not exist. */
export interface IndexPair {
  expected: number | null
  actual: number | null
}

/**
 * Two turns the alignment put side by side, or a turn present on one side
 * only (`added`: actual only, `removed`: expected only).
 */
export interface TurnPair extends IndexPair {
  status: 'equal' | 'changed' | 'added' | 'removed'
}

/** What a change is about. */
export type ChangeSubject = 'turn' | 'tool_call' | 'arguments' | 'tool_result' | 'result' | 'error' | 'response_text' | 'model' | 'system_prompt'

export interface TraceChange {
  /** `added`: only in the actual trace; `removed`: only in the expected trace; `changed`: different values. */
  kind: 'added' | 'removed' | 'changed'
  subject: ChangeSubject
  /** The turns the change belongs to, on each side. */
  turn: IndexPair
  /** For changes about a tool call (its arguments, result, error): its index in `tool_calls` on each side. */
  call?: IndexPair
  /** The tool, for changes about a tool call. */
  tool?: string
  /** JSON path of the value, e.g. `turns[2].llm_call.tool_calls[0].arguments.q`. */
  path: string
  /** The expected value; undefined for `added`. Turns and calls are shown as `{ tool_calls: [{ name, arguments }], response_text }` and `{ name, arguments }`. */
  expected: JsonValue | undefined
  /** The actual value; undefined for `removed`. */
  actual: JsonValue | undefined
}

export interface TraceDiff {
  /** True when no difference counts under the mode and options. */
  equal: boolean
  mode: MatchMode
  /** The alignment of the turns (ignored turns left out), in order. */
  turns: TurnPair[]
  /** Every difference that counts, in turn order. */
  changes: TraceChange[]
}
