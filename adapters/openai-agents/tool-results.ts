/**
 * Function spans as tool results: the tool's output (as the model got it) or
 * error, for the call it answers, found by tool name and arguments among the
 * session's calls waiting for a result (the span names no call id), timed by
 * the span. An MCP server's tool is noted with its server on the call's turn.
 */
import { noteOnTurnOfCall, toolOutputValue, type Session, type ToolOutcome } from '../../src/adapter-support/index.js'
import { durationOf, type SdkSpan } from './sdk-span.js'
import { field, parseObject, stringOrNull } from './wire.js'
import { internals } from '../../src/adapter-support/index.js'

/** Records a function span's outcome; `isWithheld` when the SDK keeps the agent's data out of its traces (the output is then not recorded). */
export function recordToolResult(s: Session, span: SdkSpan, isWithheld: boolean): void {
  const name = String(span.spanData['name'] ?? 'unknown')
  const input = span.spanData['input']
  const callId = s[internals].claimPendingCall(name, typeof input === 'string' && input !== '' ? input : undefined)
  const outcome: ToolOutcome = span.error !== null ? { error: toolError(span.error) } : { result: isWithheld ? null : outputValue(span.spanData['output']) }
  const durationMs = durationOf(span)
  if (callId === undefined) s.logToolResult(name, { ...outcome, ...(durationMs === undefined ? {} : { durationMs }) })
  else s[internals].logResultOf(callId, () => outcome, durationMs)
  const server = mcpServerOf(span.spanData['mcp_data'])
  if (server !== undefined && callId !== undefined) noteOnTurnOfCall(s, callId, 'mcp_calls', { name, server })
}

/** A tool's output as the model got it, read back as its value; one text part (an MCP tool's content) is its text. */
function outputValue(output: unknown): unknown {
  const value = toolOutputValue(output ?? null)
  return field(value, 'type') === 'text' && typeof field(value, 'text') === 'string' ? toolOutputValue(field(value, 'text')) : value
}

/** The SDK sets `mcp_data` to `{ server }` (typed as a JSON string in its declarations). */
function mcpServerOf(data: unknown): string | null | undefined {
  if (data === undefined || data === null) return undefined
  return stringOrNull(field(typeof data === 'string' ? parseObject(data) : data, 'server'))
}

function toolError(error: NonNullable<SdkSpan['error']>): string {
  const detail = field(error.data, 'error')
  return typeof detail === 'string' && detail !== '' ? detail : error.message
}
