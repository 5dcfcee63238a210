/**
 * A run as plain text for a model to read (a goal judge's prompt): what the
 * user asked, each turn's tool calls with their results or errors, the
 * model's text, and how the run ended.
 *
 *   user: Refund order 42, please.
 *   turn 0: called lookup_order({"order_id":"42"})
 *     lookup_order returned {"order_id":"42","amount":19.99}
 *   turn 1: answered “Refunded $19.99 for order 42.”
 *   the run completed
 *
 * The same run gives the same text, byte for byte: no durations, ids or
 * colours, so a judge's model call made from it replays from a recording.
 */
import { statusOf } from '../trace/facts.js'
import type { JsonValue, Trace } from '../trace/types.js'
import { oneLine, oneLineText } from './format-value.js'

/** Characters of one value (arguments, a result, a message) in the transcript. */
const VALUE_WIDTH = 500

function textOf(content: JsonValue): string {
  if (typeof content === 'string') return oneLineText(content, VALUE_WIDTH)
  // Content parts ([{ type: 'text', text }]): their text, else the JSON.
  if (Array.isArray(content)) {
    const texts = content.map((part) =>
      part !== null && typeof part === 'object' && !Array.isArray(part) && typeof part['text'] === 'string' ? part['text'] : undefined,
    )
    if (texts.every((text) => text !== undefined) && texts.length > 0) return oneLineText(texts.join(' '), VALUE_WIDTH)
  }
  return oneLine(content, VALUE_WIDTH)
}

/** The last message the user sent before the first model call, if it was recorded. */
function request(trace: Trace): string | undefined {
  const messages = trace.turns[0]?.llm_call.messages
  const last = messages?.findLast((message) => message.role === 'user')
  return last === undefined ? undefined : `user: ${textOf(last.content)}`
}

/** The run in plain text, one line per fact; see the file comment. */
export function formatTranscript(trace: Trace): string {
  const lines: string[] = []
  const asked = request(trace)
  if (asked !== undefined) lines.push(asked)
  for (const turn of trace.turns) {
    const call = turn.llm_call
    if (call.error !== undefined) lines.push(`turn ${turn.index}: the model call failed: ${call.error.name}: ${oneLineText(call.error.message, VALUE_WIDTH)}`)
    for (const toolCall of call.tool_calls) {
      lines.push(`turn ${turn.index}: called ${toolCall.name}(${oneLine(toolCall.arguments, VALUE_WIDTH)})`)
      for (const result of turn.tool_results.filter((r) => r.call_id === toolCall.call_id)) {
        lines.push(
          result.error === null
            ? `  ${toolCall.name} returned ${oneLine(result.result, VALUE_WIDTH)}`
            : `  ${toolCall.name} failed: ${oneLineText(result.error, VALUE_WIDTH)}`,
        )
      }
    }
    if (call.response_text !== null) lines.push(`turn ${turn.index}: answered “${oneLineText(call.response_text, VALUE_WIDTH * 4)}”`)
  }
  if (trace.turns.length === 0) lines.push('(the model was never called)')
  const status = statusOf(trace)
  const error = trace.error ? `: ${trace.error.name}: ${oneLineText(trace.error.message, VALUE_WIDTH)}` : ''
  lines.push(`the run ${status === 'active' ? 'is still being recorded' : status}${error}`)
  return lines.join('\n')
}
