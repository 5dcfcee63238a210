import { Session, type Trace } from '../../src/entries/index.js'

/** One tool call of a scripted turn: `[name, arguments, result]`, or an object when it failed or has no result. */
export type ScriptedCall =
  | readonly [name: string, args: Record<string, unknown>, result?: unknown]
  | { name: string; args: Record<string, unknown>; result?: unknown; error?: string; noResult?: true }

/** A scripted turn: a response text, one call, or several calls (with an optional response text). */
export type ScriptedTurn = string | ScriptedCall | { calls: readonly ScriptedCall[]; text?: string }

function toCall(call: ScriptedCall): { name: string; args: Record<string, unknown>; result?: unknown; error?: string; noResult?: true } {
  return Array.isArray(call) ? { name: call[0], args: call[1], result: call[2] } : (call as Exclude<ScriptedCall, readonly unknown[]>)
}

/**
 * Records a trace with the real recorder (in memory): each turn is one LLM
 * call, followed by the results of its tool calls.
 */
export function scriptTrace(turns: readonly ScriptedTurn[], name = 'agent', model: string | null = 'gpt-4o'): Trace {
  const s = new Session(name, { save: false })
  for (const turn of turns) {
    if (typeof turn === 'string') {
      s.logLlmCall({ responseText: turn, model })
      continue
    }
    const spec = 'calls' in turn ? turn : { calls: [turn as ScriptedCall] }
    const calls = spec.calls.map(toCall)
    const ids = s.logLlmCall({
      toolCalls: calls.map((c) => ({ name: c.name, arguments: c.args })),
      model,
      ...(spec.text === undefined ? {} : { responseText: spec.text }),
    })
    calls.forEach((call, i) => {
      if (call.noResult === true) return
      s.logToolResult(call.name, call.error === undefined ? { callId: ids[i]!, result: call.result ?? null } : { callId: ids[i]!, error: call.error })
    })
  }
  // Finished as session() would finish it, and not tied to the test that made it (a plain trace, filed by its name).
  const { test_file: _file, test_name: _name, test_key: _key, ...trace } = s.trace
  return { ...trace, turns: s.trace.turns, status: 'completed', ended_at: s.trace.started_at }
}
