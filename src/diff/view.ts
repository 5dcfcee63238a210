/**
 * The part of a trace that a diff compares, with ignored fields taken out:
 * per turn, its tool calls (name, arguments, and the result recorded for
 * each call, found by call id), results that match no call, and the response
 * text, and what the call was given: its model name and system prompt.
 * Ids, times, durations, token usage, the other messages and metadata are
 * never part of it.
 */
import { pushTo } from '../base/list-map.js'
import type { JsonObject, JsonValue, ToolResult, Trace, Turn } from '../trace/types.js'
import { ANY, coversPath, patternBelow, type PatternSegment, type Segment } from './json-path.js'
import type { ArgsRule, IgnoreRules, ResolvedDiffOptions } from './options.js'
import { systemPromptOf } from './system-prompt.js'

/** A field left out of the comparison. */
export const IGNORED = Symbol('ignored')
export type Maybe<T> = T | typeof IGNORED

export interface ResultView {
  /** Turn holding the result, and its index in that turn's `tool_results`. */
  turn: number
  index: number
  result: Maybe<JsonValue>
  error: Maybe<string | null>
}

export interface CallView {
  turn: number
  /** Index in the turn's `llm_call.tool_calls`. */
  index: number
  name: string
  args: Maybe<JsonObject>
  /** How this tool's arguments are compared. */
  rule: ArgsRule
  /** The result recorded for this call; null when none was. */
  result: Maybe<ResultView | null>
}

export interface TurnView {
  index: number
  calls: CallView[]
  /** Results in this turn that belong to no call of the trace. */
  strays: readonly ResultView[]
  responseText: Maybe<string | null>
  /** The call's model name; null when none was recorded (not compared). */
  model: Maybe<string | null>
  /** The call's system prompt (`''`: none sent); null when its messages were not recorded (not compared). */
  systemPrompt: Maybe<string | null>
}

/** `value` without what `pattern` (relative to it) points at. The input is not modified. */
export function removeAt(value: JsonValue, pattern: readonly PatternSegment[]): JsonValue {
  if (pattern.length === 0 || value === null || typeof value !== 'object') return value
  const [head, ...rest] = pattern
  if (Array.isArray(value)) {
    if (typeof head === 'string') return value
    if (rest.length === 0) return head === ANY ? [] : value.filter((_, i) => i !== head)
    return value.map((item, i) => (head === ANY || i === head ? removeAt(item, rest) : item))
  }
  if (typeof head === 'number') return value
  const out: JsonObject = { ...value }
  for (const key of head === ANY ? Object.keys(out) : [head!]) {
    if (!Object.hasOwn(out, key)) continue
    if (rest.length === 0) delete out[key]
    else out[key] = removeAt(out[key]!, rest)
  }
  return out
}

const NONE: readonly ResultView[] = Object.freeze([])
const NO_KEYS: readonly string[][] = Object.freeze([])

// Plain functions over `ignore` rather than a builder object: a new builder per
// diff made V8 throw away its optimised code at every GC ("weak objects").

function covered(ignore: IgnoreRules, path: readonly Segment[]): boolean {
  return ignore.paths.some((pattern) => coversPath(pattern, path))
}

/** The value at `path` with path rules applied: IGNORED when a rule covers it, else with ignored parts removed. */
function project<T extends JsonValue>(ignore: IgnoreRules, value: T, path: readonly Segment[]): Maybe<T> {
  let out: JsonValue = value
  for (const pattern of ignore.paths) {
    if (coversPath(pattern, path)) return IGNORED
    const below = patternBelow(pattern, path)
    if (below !== undefined) out = removeAt(out, below)
  }
  return out as T
}

function argsView(ignore: IgnoreRules, name: string, args: JsonObject, turn: number, index: number): Maybe<JsonObject> {
  if (ignore.arguments) return IGNORED
  let out: JsonValue = args
  if (ignore.toolArgs.size > 0) for (const keys of ignore.toolArgs.get(name) ?? NO_KEYS) out = removeAt(out, keys)
  return ignore.paths.length === 0 ? (out as JsonObject) : project(ignore, out as JsonObject, ['turns', turn, 'llm_call', 'tool_calls', index, 'arguments'])
}

function resultView(ignore: IgnoreRules, raw: ToolResult, turn: number, index: number): Maybe<ResultView> {
  if (ignore.results) return IGNORED
  if (ignore.paths.length === 0) return { turn, index, result: raw.result, error: ignore.errors ? IGNORED : raw.error }
  if (covered(ignore, ['turns', turn, 'tool_results', index])) return IGNORED
  return {
    turn,
    index,
    result: project(ignore, raw.result, ['turns', turn, 'tool_results', index, 'result']),
    error: ignore.errors ? IGNORED : project(ignore, raw.error, ['turns', turn, 'tool_results', index, 'error']),
  }
}

function textView(ignore: IgnoreRules, text: string | null, turn: number): Maybe<string | null> {
  if (ignore.responseText) return IGNORED
  return ignore.paths.length === 0 ? text : project(ignore, text, ['turns', turn, 'llm_call', 'response_text'])
}

function modelView(ignore: IgnoreRules, model: string | null | undefined, turn: number): Maybe<string | null> {
  if (ignore.model) return IGNORED
  const value = typeof model === 'string' ? model : null
  return ignore.paths.length === 0 ? value : project(ignore, value, ['turns', turn, 'llm_call', 'model'])
}

function systemPromptView(ignore: IgnoreRules, llmCall: Turn['llm_call'], turn: number): Maybe<string | null> {
  if (ignore.systemPrompt || (ignore.paths.length > 0 && covered(ignore, ['turns', turn, 'llm_call', 'messages']))) return IGNORED
  return systemPromptOf(llmCall.messages)
}

interface PooledResult {
  turn: number
  index: number
  raw: ToolResult
  used: boolean
}

/** Takes the first unused pooled result of `callId`. */
function claim(ignore: IgnoreRules, byId: ReadonlyMap<string, PooledResult[]>, callId: string): Maybe<ResultView> | null {
  const entry = byId.get(callId)?.find((e) => !e.used)
  if (entry === undefined) return null
  entry.used = true
  return resultView(ignore, entry.raw, entry.turn, entry.index)
}

/**
 * The compared part of `trace`, turn by turn (turns covered by an ignore
 * path left out). Results usually sit in their call's turn, in call order:
 * those are taken by position. The others are found by call id (the first
 * unused result with the call's id, in any turn); what is left belongs to no
 * call and is kept as a stray of its turn.
 */
export function buildViews(trace: Trace, options: ResolvedDiffOptions): TurnView[] {
  const { ignore, argsRule } = options
  const turns = trace.turns
  const paths = ignore.paths.length > 0
  const inPlace: boolean[] = []
  const pool: PooledResult[] = []
  for (let t = 0; t < turns.length; t++) {
    const calls = turns[t]!.llm_call.tool_calls
    const results = turns[t]!.tool_results
    let ok = results.length >= calls.length
    for (let k = 0; ok && k < calls.length; k++) ok = results[k]!.call_id === calls[k]!.call_id
    inPlace.push(ok)
    for (let k = ok ? calls.length : 0; k < results.length; k++) pool.push({ turn: t, index: k, raw: results[k]!, used: false })
  }
  const byId = new Map<string, PooledResult[]>()
  for (const entry of pool) pushTo(byId, entry.raw.call_id, entry)

  const views: TurnView[] = []
  // The view of each turn by its index; undefined for a turn left out.
  const viewOf: Array<TurnView | undefined> = new Array(turns.length)
  for (let t = 0; t < turns.length; t++) {
    if (paths && covered(ignore, ['turns', t])) continue
    const { llm_call: llmCall, tool_results: results } = turns[t]!
    const calls: CallView[] = []
    for (let j = 0; j < llmCall.tool_calls.length; j++) {
      const call = llmCall.tool_calls[j]!
      const result = inPlace[t] ? resultView(ignore, results[j]!, t, j) : claim(ignore, byId, call.call_id)
      if (paths && covered(ignore, ['turns', t, 'llm_call', 'tool_calls', j])) continue
      calls.push({ turn: t, index: j, name: call.name, args: argsView(ignore, call.name, call.arguments, t, j), rule: argsRule(call.name), result })
    }
    const view: TurnView = {
      index: t,
      calls,
      strays: NONE,
      responseText: textView(ignore, llmCall.response_text, t),
      model: modelView(ignore, llmCall.model, t),
      systemPrompt: systemPromptView(ignore, llmCall, t),
    }
    views.push(view)
    viewOf[t] = view
  }
  const strays = new Map<TurnView, ResultView[]>()
  for (const entry of pool) {
    if (entry.used) continue
    const view = viewOf[entry.turn]
    if (view === undefined) continue
    const result = resultView(ignore, entry.raw, entry.turn, entry.index)
    if (result !== IGNORED) pushTo(strays, view, result)
  }
  for (const [view, list] of strays) view.strays = list
  return views
}

/** How a turn or call is shown in a change: `{ name, arguments }` without ids or times. */
export function showCall(call: CallView): JsonObject {
  return { name: call.name, arguments: call.args === IGNORED ? {} : call.args }
}

export function showTurn(turn: TurnView): JsonObject {
  return {
    tool_calls: turn.calls.map(showCall),
    response_text: turn.responseText === IGNORED ? null : turn.responseText,
  }
}
