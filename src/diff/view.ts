/**
 * The part of a trace that a diff compares, with ignored fields taken out:
 * per turn, its tool calls (name, arguments, and the result recorded for
 * each call, found by call id), results that match no call, and the response
 * text. Ids, times, durations, model, token usage, messages and metadata are
 * never part of it.
 */
import type { JsonObject, JsonValue, ToolResult, Trace } from '../trace/types.js'
import { ANY, coversPath, patternBelow, type PatternSegment, type Segment } from './json-path.js'
import type { IgnoreRules } from './options.js'

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
  /** The result recorded for this call; null when none was. */
  result: Maybe<ResultView | null>
}

export interface TurnView {
  index: number
  calls: CallView[]
  /** Results in this turn that belong to no call of the trace. */
  strays: readonly ResultView[]
  responseText: Maybe<string | null>
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

class ViewBuilder {
  readonly #ignore: IgnoreRules
  readonly #paths: boolean

  constructor(ignore: IgnoreRules) {
    this.#ignore = ignore
    this.#paths = ignore.paths.length > 0
  }

  #covered(path: readonly Segment[]): boolean {
    return this.#ignore.paths.some((pattern) => coversPath(pattern, path))
  }

  /** The value at `path` with path rules applied: IGNORED when a rule covers it, else with ignored parts removed. */
  #project<T extends JsonValue>(value: T, path: readonly Segment[]): Maybe<T> {
    let out: JsonValue = value
    for (const pattern of this.#ignore.paths) {
      if (coversPath(pattern, path)) return IGNORED
      const below = patternBelow(pattern, path)
      if (below !== undefined) out = removeAt(out, below)
    }
    return out as T
  }

  #args(name: string, args: JsonObject, turn: number, index: number): Maybe<JsonObject> {
    if (this.#ignore.arguments) return IGNORED
    let out: JsonValue = args
    for (const keys of this.#ignore.toolArgs.get(name) ?? []) out = removeAt(out, keys)
    return this.#paths ? this.#project(out as JsonObject, ['turns', turn, 'llm_call', 'tool_calls', index, 'arguments']) : (out as JsonObject)
  }

  #result(raw: ToolResult, turn: number, index: number): Maybe<ResultView> {
    if (this.#ignore.results) return IGNORED
    if (!this.#paths) return { turn, index, result: raw.result, error: this.#ignore.errors ? IGNORED : raw.error }
    if (this.#covered(['turns', turn, 'tool_results', index])) return IGNORED
    return {
      turn,
      index,
      result: this.#project(raw.result, ['turns', turn, 'tool_results', index, 'result']),
      error: this.#ignore.errors ? IGNORED : this.#project(raw.error, ['turns', turn, 'tool_results', index, 'error']),
    }
  }

  #responseText(text: string | null, turn: number): Maybe<string | null> {
    if (this.#ignore.responseText) return IGNORED
    return this.#paths ? this.#project(text, ['turns', turn, 'llm_call', 'response_text']) : text
  }

  /**
   * Results usually sit in their call's turn, in call order: those are taken
   * by position. The others are found by call id (the first unused result
   * with the call's id, in any turn); what is left belongs to no call.
   */
  build(trace: Trace): TurnView[] {
    const turns = trace.turns
    const inPlace: boolean[] = []
    const pool: Array<{ turn: number; index: number; raw: ToolResult; used: boolean }> = []
    for (let t = 0; t < turns.length; t++) {
      const calls = turns[t]!.llm_call.tool_calls
      const results = turns[t]!.tool_results
      let ok = results.length >= calls.length
      for (let k = 0; ok && k < calls.length; k++) ok = results[k]!.call_id === calls[k]!.call_id
      inPlace.push(ok)
      for (let k = ok ? calls.length : 0; k < results.length; k++) pool.push({ turn: t, index: k, raw: results[k]!, used: false })
    }
    const byId = new Map<string, typeof pool>()
    for (const entry of pool) byId.set(entry.raw.call_id, [...(byId.get(entry.raw.call_id) ?? []), entry])
    const claim = (callId: string): Maybe<ResultView> | null => {
      const entry = byId.get(callId)?.find((e) => !e.used)
      if (entry === undefined) return null
      entry.used = true
      return this.#result(entry.raw, entry.turn, entry.index)
    }

    const views: TurnView[] = []
    const viewOf = new Map<number, TurnView>()
    for (let t = 0; t < turns.length; t++) {
      if (this.#paths && this.#covered(['turns', t])) continue
      const { llm_call: llmCall, tool_results: results } = turns[t]!
      const calls: CallView[] = []
      for (let j = 0; j < llmCall.tool_calls.length; j++) {
        const call = llmCall.tool_calls[j]!
        const result = inPlace[t] ? this.#result(results[j]!, t, j) : claim(call.call_id)
        if (this.#paths && this.#covered(['turns', t, 'llm_call', 'tool_calls', j])) continue
        calls.push({ turn: t, index: j, name: call.name, args: this.#args(call.name, call.arguments, t, j), result })
      }
      const view: TurnView = { index: t, calls, strays: NONE, responseText: this.#responseText(llmCall.response_text, t) }
      views.push(view)
      viewOf.set(t, view)
    }
    for (const entry of pool) {
      const view = viewOf.get(entry.turn)
      const result = entry.used || view === undefined ? IGNORED : this.#result(entry.raw, entry.turn, entry.index)
      if (result !== IGNORED) view!.strays = [...view!.strays, result]
    }
    return views
  }
}

/** The compared part of `trace`, turn by turn (turns covered by an ignore path left out). */
export function buildViews(trace: Trace, ignore: IgnoreRules): TurnView[] {
  return new ViewBuilder(ignore).build(trace)
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
