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
import { toolOutputValue, type Session } from '../../src/adapter-support.js'
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

/** Records the results in `messages` whose calls this session made and has no result for yet. */
export function recordRequestToolResults(session: Session, messages: readonly WireMessageParam[] | undefined): void {
  if (!Array.isArray(messages)) return
  for (const message of messages) {
    if (message?.role !== 'user' || !Array.isArray(message.content)) continue
    for (const block of message.content as unknown[]) {
      if (!isToolResultBlock(block)) continue
      session.logResultOf(block.tool_use_id, () =>
        block.is_error === true
          ? { error: contentText(block.content) || 'the tool reported an error (is_error: true)' }
          : { result: toolOutputValue(block.content) },
      )
    }
  }
}
