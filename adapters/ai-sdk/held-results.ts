/**
 * Results of tool executions that finished before the model call that asked
 * for them was in the trace.
 *
 * That happens with `streamText` in the AI SDK versions that start a tool as
 * soon as its `tool-call` part streams by, while the middleware records the
 * call when the model's stream finishes. Such a result waits here (with its
 * exact duration) and is logged right after its call; what is still waiting
 * when the session closes is logged then, so nothing is lost.
 */
import type { Session, ToolOutcome } from '../../src/adapter-support/index.js'
import { recordSafelyAiSdk } from './record.js'
import { internals } from '../../src/adapter-support/index.js'

interface HeldResult {
  name: string
  outcome: ToolOutcome
  durationMs: number
  /** The outcome is a fault the `faults` option injected. */
  injected: boolean
}

const heldBySession = new WeakMap<Session, Map<string, HeldResult>>()

function log(s: Session, callId: string, { name, outcome, durationMs, injected }: HeldResult): void {
  recordSafelyAiSdk(`the result of tool "${name}"`, () => {
    s.logToolResult(name, { ...outcome, callId, durationMs, skipIfRecorded: true, injected })
  })
}

/** Logs the result now if its call is in the trace, else keeps it until it is. */
export function logOrHoldResult(s: Session, callId: string, result: HeldResult): void {
  if (s.closed) return
  if (s[internals].toolNameOf(callId) !== undefined) {
    log(s, callId, result)
    return
  }
  let held = heldBySession.get(s)
  if (held === undefined) {
    const created = new Map<string, HeldResult>()
    held = created
    heldBySession.set(s, created)
    s[internals].beforeClose(() => {
      for (const [id, waiting] of created) log(s, id, waiting)
      created.clear()
    })
  }
  held.set(callId, result)
}

/** Logs the held results whose calls are now in the trace. */
export function releaseHeldResults(s: Session): void {
  const held = heldBySession.get(s)
  if (held === undefined || held.size === 0) return
  for (const [callId, result] of held) {
    if (s[internals].toolNameOf(callId) === undefined) continue
    held.delete(callId)
    log(s, callId, result)
  }
}
