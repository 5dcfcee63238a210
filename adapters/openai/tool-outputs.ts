/**
 * Tool results the agent sends back to the model in its next request (chat
 * `role: "tool"` messages, Responses `function_call_output` items), recorded
 * as the results of the calls they answer.
 *
 * A result already recorded (by `traceTool`, or seen in an earlier request:
 * agents resend the whole history every turn) is not recorded again. Outputs
 * of calls this session never saw (history from before it began) are left
 * alone: they answer no call of this trace.
 */
import { toolOutputValue, type Session } from '../../src/adapter-support.js'
import type { ToolOutput } from './types.js'

/** When each call's response arrived (performance.now()), per session, until its result is seen. */
const requestedAt = new WeakMap<Session, Map<string, number>>()

/** Remembers when the model asked for these calls, to time their results. */
export function noteRequested(s: Session, callIds: readonly string[], at: number): void {
  if (callIds.length === 0) return
  let times = requestedAt.get(s)
  if (times === undefined) requestedAt.set(s, (times = new Map()))
  for (const id of callIds) times.set(id, at)
}

/**
 * Records each output as the result of its call. Its duration is the time
 * from the response that asked for the call to the request that carries the
 * result: an upper bound of the tool's run (`traceTool` measures it exactly).
 */
export function recordToolOutputs(s: Session, outputs: readonly ToolOutput[], now: number): void {
  const times = requestedAt.get(s)
  for (const { callId, output } of outputs) {
    const name = s.toolNameOf(callId)
    const askedAt = times?.get(callId)
    times?.delete(callId)
    if (name === undefined || s.hasResult(callId)) continue
    s.logToolResult(name, {
      callId,
      result: toolOutputValue(output),
      ...(askedAt === undefined ? {} : { durationMs: now - askedAt }),
      skipIfRecorded: true,
    })
  }
}
