/**
 * A tool call whose arguments LangChain could not parse (an AI message's
 * `invalid_tool_calls`) is recorded with the model's other calls, and no tool
 * ever runs for it: LangGraph's ToolNode runs `tool_calls` only. When the
 * session closes, each such call still without a result gets the parse error
 * LangChain gave as its result's error. Not at once: an agent may answer the
 * call itself (an error ToolMessage sent to its model), and that answer wins.
 */
import type { LLMResult } from '@langchain/core/outputs'
import { internals, type Session } from '../../src/adapter-support/index.js'

interface InvalidToolCallLike {
  name?: unknown
  id?: unknown
  error?: unknown
}

function parseError(call: InvalidToolCallLike): Error {
  const name = typeof call.name === 'string' && call.name !== '' ? call.name : 'unknown'
  const error = new Error(typeof call.error === 'string' && call.error !== '' ? call.error : `the arguments of "${name}" did not parse`)
  error.name = 'InvalidToolCall'
  // The stack would only point into this adapter.
  error.stack = ''
  return error
}

/** Records, when `session` closes, the parse error of each invalid tool call of `output` that nothing answered. */
export function answerInvalidToolCallsAtClose(session: Session, output: LLMResult): void {
  const message = (output.generations[0]?.[0] as { message?: { invalid_tool_calls?: unknown } } | undefined)?.message
  const calls = message?.invalid_tool_calls
  if (!Array.isArray(calls)) return
  for (const call of calls as InvalidToolCallLike[]) {
    const callId = call?.id
    if (typeof callId !== 'string' || callId === '') continue
    session[internals].beforeClose(() => session[internals].logResultOf(callId, () => ({ error: parseError(call) })))
  }
}
