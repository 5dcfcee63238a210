/**
 * Turn building and call-id matching, free of I/O and of AsyncLocalStorage.
 *
 * A turn opens with each LLM call; its tool calls become pending until a
 * result arrives. A result finds its call by id, else by being the only
 * pending call of that tool name (in any turn: agents run tools late, and in
 * parallel). Nothing logged is ever dropped: a result that matches no call is
 * kept on the latest turn with its tool name, and a warning says so.
 */
import stringify from 'fast-json-stable-stringify'
import { AmbiguousToolCallError } from './errors.js'
import { epochSeconds } from './trace/ids.js'
import { describeError, recordError } from './trace/recorded-error.js'
import { copyIfPlain, NOT_PLAIN, toJsonValue, type ValueIssueHandler } from './trace/serialize.js'
import { normalizeTokenUsage } from './trace/tokens.js'
import type { JsonObject, JsonValue, LLMCall, Message, ToolCall, ToolResult, Turn } from './trace/types.js'
import { warn } from './warnings.js'

export interface ToolCallInput {
  name: string
  /** An object, or a JSON string as providers send it (parsed; kept raw under `_raw_arguments` when it is not JSON). */
  arguments?: unknown
  /** The provider's id for this call. Generated when absent. */
  callId?: string
}

export interface LlmCallInput {
  toolCalls?: readonly ToolCallInput[]
  responseText?: string | null
  /** The request's messages; each is kept as `{ role, content }`. */
  messages?: readonly unknown[] | null
  model?: string | null
  /** Any provider's usage object; `prompt_tokens`/`completion_tokens` and camelCase names are normalised. */
  tokenUsage?: Readonly<Record<string, unknown>> | null
  /** When the call started, epoch seconds. Default: now. */
  timestamp?: number
  latencyMs?: number
  stopReason?: string | null
  /** Who served the call ("openai", "anthropic", ...). */
  provider?: string | null
  /** The call failed: the error the SDK threw. */
  error?: unknown
}

/** What a tool execution ended with: its value, or the error it threw or reported. */
export type ToolOutcome = { result: unknown } | { error: unknown }

export interface ToolResultInput {
  result?: unknown
  /** A string, or an Error (written as `"Name: message"`). */
  error?: unknown
  callId?: string
  durationMs?: number
}

/** Recorder-side state of one tool call; kept out of the ToolCall, which must hold exactly four keys. */
interface CallSlot {
  readonly turn: Turn
  readonly name: string
  readonly callId: string
  answered: boolean
  /** A running tool execution (traceTool) has taken this call; a second concurrent one picks another. */
  claimed: boolean
}

function stableKey(value: unknown): string {
  const json = copyIfPlain(value)
  return json === NOT_PLAIN ? stringify(toJsonValue(value)) : stringify(json)
}

const IGNORE_ISSUES: ValueIssueHandler = () => undefined

/**
 * Tool-call arguments as the trace keeps them: an object; a JSON string as
 * providers send it, parsed (kept raw under `_raw_arguments` when it is not
 * JSON); a bare value under `_value` (format "1" wants an object).
 */
function normalizeArguments(raw: unknown, onIssue: ValueIssueHandler, turn: number, call: number): JsonObject {
  if (raw === undefined || raw === null) return {}
  if (typeof raw === 'string') {
    const text = raw
    if (text.trim() === '') return {}
    try {
      raw = JSON.parse(text)
    } catch {
      return { _raw_arguments: text }
    }
  }
  let value = copyIfPlain(raw)
  // The warning path is only built when a stand-in is needed.
  if (value === NOT_PLAIN) value = toJsonValue(raw, onIssue, `turns[${turn}].llm_call.tool_calls[${call}].arguments`)
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
  return { _value: value }
}

/**
 * The first result replaces the empty list with a one-element one instead of
 * pushing: an empty array grows to 17 slots on its first push, and most turns
 * have one or two results.
 */
function addResult(turn: Turn, result: ToolResult): void {
  if (turn.tool_results.length === 0) turn.tool_results = [result]
  else turn.tool_results.push(result)
}

export class Recorder {
  readonly turns: Turn[] = []
  /** Results logged before any LLM call: there is no turn to hold them. */
  readonly orphanResults: Array<ToolResult & { name: string }> = []
  /** Calls whose id came from the provider or the user. */
  readonly #calls = new Map<string, CallSlot>()
  /**
   * Calls with generated ids (`rf_<n>_<suffix>`), at index n-1. An array, not
   * the Map: inserting ten thousand fresh strings into a Map costs far more
   * than recording the turns themselves.
   */
  readonly #generatedSlots: CallSlot[] = []
  /** Unanswered calls per tool name, oldest first. */
  readonly #pendingByName = new Map<string, CallSlot[]>()
  readonly #idSuffix: string
  readonly #onIssue: ValueIssueHandler
  #generated = 0
  #orphans = 0

  constructor(traceId: string, onIssue: ValueIssueHandler) {
    this.#idSuffix = traceId.slice(-6).toLowerCase()
    this.#onIssue = onIssue
  }

  #newCallId(): string {
    this.#generated += 1
    return `rf_${this.#generated}_${this.#idSuffix}`
  }

  #newOrphanId(): string {
    this.#orphans += 1
    return `rf_orphan_${this.#orphans}_${this.#idSuffix}`
  }

  logLlmCall(input: LlmCallInput): string[] {
    const timestamp = typeof input.timestamp === 'number' && input.timestamp > 0 ? input.timestamp : epochSeconds()
    const index = this.turns.length
    const call: LLMCall = {
      messages: input.messages == null ? null : this.#messages(Array.isArray(input.messages) ? input.messages : [input.messages], index),
      response_text: input.responseText == null ? null : String(input.responseText),
      tool_calls: [],
      model: input.model == null ? null : String(input.model),
      token_usage: input.tokenUsage == null ? null : normalizeTokenUsage(input.tokenUsage, this.#onIssue),
      timestamp,
    }
    const turn: Turn = { index, llm_call: call, tool_results: [], duration_ms: 0 }
    if (typeof input.latencyMs === 'number' && input.latencyMs >= 0) {
      call.latency_ms = input.latencyMs
      turn.duration_ms = input.latencyMs
    }
    if (input.stopReason != null) call.stop_reason = String(input.stopReason)
    if (input.provider != null) call.provider = String(input.provider)
    if (input.error !== undefined) call.error = recordError(input.error)

    const requested = Array.isArray(input.toolCalls) ? input.toolCalls : []
    const ids: string[] = new Array(requested.length)
    // Sized up front: an empty array grows to 17 slots on its first push,
    // which for the usual one or two calls is most of a turn's memory.
    if (requested.length > 0) call.tool_calls = new Array<ToolCall>(requested.length)
    for (let i = 0; i < requested.length; i++) {
      const raw = requested[i] as ToolCallInput | undefined
      const given = raw?.callId
      const isGiven = typeof given === 'string' && given !== ''
      const callId = isGiven ? given : this.#newCallId()
      const name = typeof raw?.name === 'string' && raw.name !== '' ? raw.name : String(raw?.name ?? 'unknown')
      const args = normalizeArguments(raw?.arguments, this.#onIssue, index, i)
      call.tool_calls[i] = { name, arguments: args, call_id: callId, timestamp }
      const slot: CallSlot = { turn, name, callId, answered: false, claimed: false }
      if (isGiven) this.#calls.set(callId, slot)
      else this.#generatedSlots.push(slot)
      const pending = this.#pendingByName.get(name)
      if (pending === undefined) this.#pendingByName.set(name, [slot])
      else pending.push(slot)
      ids[i] = callId
    }
    this.turns.push(turn)
    return ids
  }

  /**
   * Records a result. With `onlyIfUnanswered`, a result for a call that already
   * has one is skipped silently: adapters use it so a result seen twice (by
   * `traceTool` and again in the next request) is recorded once.
   */
  logToolResult(name: string, input: ToolResultInput, onlyIfUnanswered = false): ToolResult | undefined {
    const given = input.callId
    let slot: CallSlot | undefined
    if (typeof given === 'string' && given !== '') {
      slot = this.#slotOf(given)
    } else {
      const pending = this.#pendingByName.get(name)
      if (pending !== undefined && pending.length > 1) {
        throw new AmbiguousToolCallError(
          name,
          pending.map((p) => p.callId),
        )
      }
      slot = pending?.[0]
    }
    if (slot !== undefined && slot.answered && onlyIfUnanswered) return undefined

    const result: ToolResult = {
      call_id: slot?.callId ?? (typeof given === 'string' && given !== '' ? given : this.#newOrphanId()),
      result: this.#value(input.result, name),
      error: input.error == null ? null : describeError(input.error),
      duration_ms: typeof input.durationMs === 'number' && input.durationMs >= 0 ? input.durationMs : 0,
    }
    if (slot === undefined) {
      this.#keepOrphan(name, result)
      return result
    }
    if (slot.answered) {
      warn(
        'REAGENT_DUPLICATE_RESULT',
        `call "${slot.callId}" of "${name}" already has a result; the second one is kept next to it. ` +
          `Log one result per call, or pass the callId of the call this result belongs to.`,
      )
    } else {
      this.#settle(slot)
    }
    const turn = slot.turn
    addResult(turn, result)
    const elapsed = (epochSeconds() - turn.llm_call.timestamp) * 1000
    if (elapsed > turn.duration_ms) turn.duration_ms = elapsed
    return result
  }

  #slotOf(callId: string): CallSlot | undefined {
    const given = this.#calls.get(callId)
    if (given !== undefined) return given
    if (!callId.startsWith('rf_') || !callId.endsWith(`_${this.#idSuffix}`)) return undefined
    const slot = this.#generatedSlots[Number.parseInt(callId.slice(3), 10) - 1]
    return slot?.callId === callId ? slot : undefined
  }

  /**
   * Records `outcome()` as the result of call `callId`, named after its tool,
   * when that call is recorded and has no result yet; otherwise does nothing
   * and never calls `outcome`. Without `durationMs`, the duration runs from
   * the end of the response that made the call (its turn's `timestamp` plus
   * `latency_ms`) to now.
   */
  logResultOf(callId: string, outcome: () => ToolOutcome, durationMs?: number): ToolResult | undefined {
    const slot = this.#slotOf(callId)
    if (slot === undefined || slot.answered) return undefined
    const call = slot.turn.llm_call
    const sinceResponse = (epochSeconds() - call.timestamp) * 1000 - (call.latency_ms ?? 0)
    return this.logToolResult(slot.name, { ...outcome(), callId, durationMs: durationMs ?? Math.max(0, sinceResponse) })
  }

  /** The tool name of a recorded call, if the id is known. */
  toolNameOf(callId: string): string | undefined {
    return this.#slotOf(callId)?.name
  }

  /**
   * Takes the pending call of `name` that a tool execution is about to answer:
   * among unclaimed pending calls, the oldest whose arguments equal `args`
   * (read as a call's arguments are, so a JSON string matches its object;
   * compared in stable form), else the oldest. Parallel executions of one
   * tool each take a different call this way. Undefined when none is pending.
   */
  claimPendingCall(name: string, args?: unknown): string | undefined {
    const free = (this.#pendingByName.get(name) ?? []).filter((slot) => !slot.claimed)
    let chosen = free[0]
    if (free.length > 1 && args !== undefined) {
      // In the form calls are recorded in: a JSON string (as LangChain passes a tool's input) reads as its object.
      const wanted = stableKey(normalizeArguments(args, IGNORE_ISSUES, -1, -1))
      chosen = free.find((slot) => stableKey(this.#argumentsOf(slot)) === wanted) ?? chosen
    }
    if (chosen === undefined) return undefined
    chosen.claimed = true
    return chosen.callId
  }

  #argumentsOf(slot: CallSlot): unknown {
    return slot.turn.llm_call.tool_calls.find((call) => call.call_id === slot.callId)?.arguments
  }

  #settle(slot: CallSlot): void {
    slot.answered = true
    const pending = this.#pendingByName.get(slot.name)
    if (pending === undefined) return
    // Results usually arrive in call order, so the slot is almost always first.
    const at = pending[0] === slot ? 0 : pending.indexOf(slot)
    // An emptied list stays in the map: deleting and re-adding a key every
    // turn churns the Map's storage.
    if (at === 0) pending.shift()
    else if (at > 0) pending.splice(at, 1)
  }

  #keepOrphan(name: string, result: ToolResult): void {
    const last = this.turns.at(-1)
    warn(
      'REAGENT_ORPHAN_RESULT',
      `a result for "${name}" matched no pending call (call id ${JSON.stringify(result.call_id)}); ` +
        (last === undefined
          ? `it is kept under orphan_results because no LLM call was logged yet. `
          : `it is kept on turn ${last.index} with its tool name under unmatched_results. `) +
        `Log the LLM call that requested the tool first, or pass the callId it returned.`,
    )
    if (last === undefined) {
      this.orphanResults.push({ name, ...result })
      return
    }
    addResult(last, result)
    ;(last.unmatched_results ??= []).push({ call_id: result.call_id, name })
  }

  /** A tool result value; the warning path is only built when a stand-in is needed. */
  #value(raw: unknown, name: string): JsonValue {
    if (raw === undefined) return null
    const value = copyIfPlain(raw)
    return value === NOT_PLAIN ? toJsonValue(raw, this.#onIssue, `result of "${name}"`) : value
  }

  #messages(raw: readonly unknown[], turn: number): Message[] {
    const out: Message[] = new Array(raw.length)
    for (let i = 0; i < raw.length; i++) {
      const message = raw[i]
      const at = `turns[${turn}].llm_call.messages[${i}]`
      if (typeof message === 'string') out[i] = { role: 'user', content: message }
      else if (message === null || typeof message !== 'object') out[i] = { role: 'unknown', content: toJsonValue(message, this.#onIssue, at) }
      else {
        const { role, content } = message as { role?: unknown; content?: unknown }
        out[i] = { role: typeof role === 'string' ? role : 'unknown', content: toJsonValue(content, this.#onIssue, `${at}.content`) }
      }
    }
    return out
  }
}
