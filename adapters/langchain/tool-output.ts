/**
 * What a LangChain tool run produced, as a reagent-flow result.
 *
 * A tool invoked with a tool call (the agent and LangGraph path) hands back a
 * `ToolMessage` whose content is the tool's return value, stringified when it
 * was not a string. We record the value the tool returned: the content, read
 * by `toolOutputValue` (JSON objects and arrays parsed back), so output
 * assertions see fields, not text.
 */
import { toolOutputValue, type ToolOutcome } from '../../src/adapter-support/index.js'

interface ToolMessageLike {
  content?: unknown
  status?: unknown
  tool_call_id?: unknown
}

function isToolMessage(value: unknown): value is ToolMessageLike {
  return value !== null && typeof value === 'object' && 'tool_call_id' in value && 'content' in value
}

/** `{ result }`, or `{ error }` for a ToolMessage the tool itself marked as an error (the recorder writes its content as text). */
export function unwrapToolOutput(output: unknown): ToolOutcome {
  if (!isToolMessage(output)) return { result: toolOutputValue(output) }
  if (output.status === 'error') return { error: output.content }
  return { result: toolOutputValue(output.content) }
}
