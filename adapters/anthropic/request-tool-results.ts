/**
 * Tool results the agent sends back: when its own code runs the tools, the
 * only place the results show up is the next request, as `tool_result`
 * blocks in a user message, each naming the `tool_use` it answers.
 *
 * Every request repeats the whole history, so the same block is seen again
 * and again; only calls recorded in this session and still without a result
 * are recorded (a result `traceTool` already recorded wins: it has the exact
 * duration and the unserialised value). The duration is not the tool's own
 * run time but the time from the response that asked for it to the request
 * that answers it.
 */
import { toolOutputValue, type RequestToolResult, type ToolOutcome } from '../../src/adapter-support/index.js'
import { contentText } from './content.js'
import type { WireMessageParam } from './wire.js'

interface ToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  content?: unknown
  is_error?: boolean
}

function isToolResultBlock(block: unknown): block is ToolResultBlock {
  return (
    typeof block === 'object' &&
    block !== null &&
    (block as { type?: unknown }).type === 'tool_result' &&
    typeof (block as { tool_use_id?: unknown }).tool_use_id === 'string'
  )
}

function outcomeOf(block: ToolResultBlock): ToolOutcome {
  return block.is_error === true
    ? { error: contentText(block.content) || 'the tool reported an error (is_error: true)' }
    : { result: toolOutputValue(block.content) }
}

/** The `tool_result` blocks of the request's user messages. */
export function requestToolResults(messages: readonly WireMessageParam[] | undefined): RequestToolResult[] {
  const results: RequestToolResult[] = []
  if (!Array.isArray(messages)) return results
  for (const message of messages) {
    if (message?.role !== 'user' || !Array.isArray(message.content)) continue
    for (const block of message.content as unknown[]) {
      if (isToolResultBlock(block)) results.push({ callId: block.tool_use_id, outcome: () => outcomeOf(block) })
    }
  }
  return results
}
