/**
 * Facts an adapter keeps on a turn or on the trace beyond the LLM call and
 * its tool results (the guardrails that ran, the MCP server a tool came
 * from): extra keys, which format "1" allows on Turn and Trace and
 * reagent-flow 0.5 reads past. Each key holds a list, appended to.
 *
 * One place writes them, and tells the session's lifecycle (`turn-changed`):
 * a turn the journal took already has its file text made again.
 */
import type { Session } from '../session/session.js'
import type { JsonValue, Turn } from '../trace/types.js'
import { internals } from '../session/internals.js'

/** Notes that arrived before the session had any turn, kept for its first one. */
const waitingBySession = new WeakMap<Session, Array<[string, JsonValue]>>()

function append(target: Record<string, unknown>, key: string, note: JsonValue): void {
  const list = target[key]
  if (Array.isArray(list)) list.push(note)
  else target[key] = [note]
}

/** Notes `note` on `turn`; the session's run files hear of it, so the turn's text is made again for its file. */
function appendToTurn(s: Session, turn: Turn, key: string, note: JsonValue): void {
  append(turn, key, note)
  s[internals].lifecycle.emit('turn-changed', turn.index)
}

/**
 * Keeps `note` under `key` on the session's latest turn; before its first
 * turn, on that first turn when it comes (or on the trace, when the session
 * closes without one).
 */
export function noteOnTurn(s: Session, key: string, note: JsonValue): void {
  const last = s.trace.turns.at(-1)
  if (last !== undefined) {
    flushWaiting(s)
    appendToTurn(s, last, key, note)
    return
  }
  let waiting = waitingBySession.get(s)
  if (waiting === undefined) {
    waitingBySession.set(s, (waiting = []))
    s[internals].beforeClose(() => flushWaiting(s))
  }
  waiting.push([key, note])
}

/** Keeps `note` under `key` on the turn whose LLM call made call `callId`; false when no turn has it. */
export function noteOnTurnOfCall(s: Session, callId: string, key: string, note: JsonValue): boolean {
  const turn = turnOfCall(s.trace.turns, callId)
  if (turn === undefined) return false
  appendToTurn(s, turn, key, note)
  return true
}

/** Keeps `note` under `key` on the trace itself, once: an equal note already there is not added again. */
export function noteOnTrace(s: Session, key: string, note: JsonValue): void {
  const list = s.trace[key]
  const text = JSON.stringify(note)
  if (Array.isArray(list) && list.some((kept) => JSON.stringify(kept) === text)) return
  append(s.trace, key, note)
}

function flushWaiting(s: Session): void {
  const waiting = waitingBySession.get(s)
  if (waiting === undefined || waiting.length === 0) return
  const first = s.trace.turns[0]
  for (const [key, note] of waiting.splice(0)) {
    if (first === undefined) append(s.trace, key, note)
    else appendToTurn(s, first, key, note)
  }
}

function turnOfCall(turns: readonly Turn[], callId: string): Turn | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!
    if (turn.llm_call.tool_calls.some((call) => call.call_id === callId)) return turn
  }
  return undefined
}
