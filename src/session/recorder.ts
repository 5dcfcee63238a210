/**
 * Turn building and call-id matching, free of I/O and of AsyncLocalStorage.
 *
 * A turn opens with each LLM call; its tool calls become pending until a
 * result arrives. A result finds its call by id, else by being the only
 * pending call of that tool name (in any turn: agents run tools late, and in
 * parallel). Nothing logged is ever dropped: a result that matches no call is
 * kept on the latest turn with its tool name, and a warning says so.
 */
import { markInjected } from '../trace/injected-mark.js'
import stringify from 'fast-json-stable-stringify'
import { AmbiguousToolCallError } from '../errors/index.js'
import { argumentsOf, Cursor, finiteNumber, isUnreadable, jsonValueOf, messagesOf, optionalText, readField, tokenUsageOf } from './record-values.js'
import { epochSeconds } from '../trace/ids.js'
import { MessageHistory } from '../trace/messages.js'
import { describeError, recordError } from '../trace/recorded-error.js'
import { copyIfPlain, NOT_PLAIN, toJsonValue, type ValueIssueHandler } from '../trace/serialize.js'
import type { LlmCall, Message, ToolCall, ToolResult, Turn } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { Lifecycle } from './lifecycle.js'

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
  /** The call was answered from a recording (or a resumed run), not by the model. */
  replayed?: boolean
  /** The call failed: the error the SDK threw. */
  error?: unknown
  /** The call's failure was injected (the `faults` option), not the provider's. */
  injected?: boolean
}

/** What a tool execution ended with: its value, or the error it threw or reported. */
export type ToolOutcome = { result: unknown } | { error: unknown }

export interface ToolResultInput {
  result?: unknown
  /** A string, or an Error (written as `"Name: message"`). */
  error?: unknown
  /** The id `logLlmCall` returned for the call (`const [id] = s.logLlmCall(...)`, which strict TypeScript types `string | undefined`). */
  callId?: string | undefined
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
  readonly orphanResults: Array<ToolResult & { name: string; injected?: boolean }> = []
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
  readonly #history = new MessageHistory()
  /** Where the value being read goes, for the path of a warning. */
  readonly #where = new Cursor()
  #generated = 0
  #orphans = 0
  /** Told of every turn and result as it is recorded (the session's journal listens). */
  readonly #lifecycle: Lifecycle

  /** `lifecycle`: the session's, which its features hear turns and results through (a recorder alone tells no one). */
  constructor(traceId: string, onIssue: ValueIssueHandler, lifecycle: Lifecycle = new Lifecycle()) {
    this.#idSuffix = traceId.slice(-6).toLowerCase()
    this.#onIssue = onIssue
    this.#lifecycle = lifecycle
  }

  #newCallId(): string {
    this.#generated += 1
    return `rf_${this.#generated}_${this.#idSuffix}`
  }

  #newOrphanId(): string {
    this.#orphans += 1
    return `rf_orphan_${this.#orphans}_${this.#idSuffix}`
  }

  /** `toolSet`: the id of the tools the request offered (an adapter's call), kept on the call as `tool_set`. */
  logLlmCall(input: LlmCallInput, toolSet?: string): string[] {
    const index = this.turns.length
    const onIssue = this.#onIssue
    const where = this.#where.at(index, -1, '')
    const field = (key: keyof LlmCallInput): unknown => readField(input, key, onIssue, where)
    const timestamp = finiteNumber(field('timestamp'), Number.MIN_VALUE) ?? epochSeconds()
    const messages = field('messages')
    const call: LlmCall = {
      messages: messages == null || isUnreadable(messages) ? null : this.#messages(messages),
      response_text: optionalText(field('responseText')),
      tool_calls: [],
      model: optionalText(field('model')),
      token_usage: tokenUsageOf(field('tokenUsage'), onIssue, where),
      timestamp,
    }
    const turn: Turn = { index, llm_call: call, tool_results: [], duration_ms: 0 }
    const latencyMs = finiteNumber(field('latencyMs'), 0)
    if (latencyMs !== undefined) {
      call.latency_ms = latencyMs
      turn.duration_ms = latencyMs
    }
    const stopReason = optionalText(field('stopReason'))
    if (stopReason !== null) call.stop_reason = stopReason
    const provider = optionalText(field('provider'))
    if (provider !== null) call.provider = provider
    if (field('replayed') === true) call.replayed = true
    const error = field('error')
    if (error !== undefined) call.error = recordError(isUnreadable(error) ? error.text : error)
    if (field('injected') === true) call.injected = true
    if (toolSet !== undefined) call.tool_set = toolSet

    const toolCalls = field('toolCalls')
    const requested: readonly unknown[] = Array.isArray(toolCalls) ? toolCalls : []
    const ids: string[] = new Array(requested.length)
    // Sized up front: an empty array grows to 17 slots on its first push,
    // which for the usual one or two calls is most of a turn's memory.
    if (requested.length > 0) call.tool_calls = new Array<ToolCall>(requested.length)
    for (let i = 0; i < requested.length; i++) {
      const raw = requested[i]
      where.call = i
      const given = readField(raw, 'callId', onIssue, where)
      const isGiven = typeof given === 'string' && given !== ''
      const callId = isGiven ? given : this.#newCallId()
      const rawName = readField(raw, 'name', onIssue, where)
      const name = typeof rawName === 'string' && rawName !== '' ? rawName : (optionalText(rawName) ?? 'unknown')
      const args = argumentsOf(readField(raw, 'arguments', onIssue, where), onIssue, where)
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
    this.#lifecycle.emit('turn', index, turn.duration_ms)
    return ids
  }

  /**
   * Records a result. With `skipIfRecorded`, a result for a call that already
   * has one is skipped silently: adapters use it so a result seen twice (by
   * `traceTool` and again in the next request) is recorded once. An
   * `injected` result (a fault the `faults` option injected) marks the turn
   * it lands on: `injected: true`, and its call id in `injected_results`.
   */
  logToolResult(name: string, input: ToolResultInput, skipIfRecorded = false, injected = false): ToolResult | undefined {
    const where = this.#where.at(-1, -1, name)
    const given = readField(input, 'callId', this.#onIssue, where)
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
    if (slot?.answered && skipIfRecorded) return undefined

    const error = readField(input, 'error', this.#onIssue, where)
    const result: ToolResult = {
      call_id: slot?.callId ?? (typeof given === 'string' && given !== '' ? given : this.#newOrphanId()),
      result: jsonValueOf(readField(input, 'result', this.#onIssue, where), this.#onIssue, where, ''),
      error: error == null ? null : isUnreadable(error) ? error.text : describeError(error),
      duration_ms: finiteNumber(readField(input, 'durationMs', this.#onIssue, where), 0) ?? 0,
    }
    if (slot === undefined) {
      this.#keepOrphan(name, result, injected)
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
    if (injected) markInjected(turn, result.call_id)
    const elapsed = (epochSeconds() - turn.llm_call.timestamp) * 1000
    if (elapsed > turn.duration_ms && Number.isFinite(elapsed)) turn.duration_ms = elapsed
    this.#lifecycle.emit('tool-result', turn.index, result, turn.duration_ms, undefined, injected)
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
      const wanted = stableKey(argumentsOf(args, IGNORE_ISSUES, new Cursor()))
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

  #keepOrphan(name: string, result: ToolResult, injected: boolean): void {
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
      const orphan = injected ? { name, ...result, injected: true } : { name, ...result }
      this.orphanResults.push(orphan)
      this.#lifecycle.emit('orphan-result', orphan)
      return
    }
    addResult(last, result)
    if (injected) markInjected(last, result.call_id)
    ;(last.unmatched_results ??= []).push({ call_id: result.call_id, name })
    this.#lifecycle.emit('tool-result', last.index, result, last.duration_ms, name, injected)
  }

  /** The call's messages, sharing those it has in common with a recent call (see trace/messages.ts). */
  #messages(raw: unknown): Message[] {
    let list: readonly unknown[]
    try {
      list = Array.isArray(raw) ? raw : [raw]
    } catch {
      // Array.isArray throws on a revoked Proxy.
      list = [raw]
    }
    return this.#history.share(messagesOf(list, this.#onIssue, this.#where))
  }
}
