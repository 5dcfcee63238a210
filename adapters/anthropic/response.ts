/**
 * What a response message says, in the recorder's terms: the tool calls the
 * model made (`tool_use`, and the server tools the API ran itself), its text,
 * and the results of server tools, which arrive in the same response.
 */
import type { ToolCallInput } from '../../src/adapter-support.js'
import { contentText } from './content.js'
import type { WireBlock, WireMessage } from './wire.js'

/** Blocks in which the model calls a tool: the agent's own tools, Anthropic's server tools, MCP connector tools. */
const TOOL_CALL_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use'])

export interface ServerToolResult {
  callId: string
  name: string
  result: unknown
  error: string | null
}

function blocksOf(message: WireMessage): WireBlock[] {
  return Array.isArray(message.content) ? message.content.filter((block) => typeof block === 'object' && block !== null) : []
}

export function toolCallsOf(message: WireMessage): ToolCallInput[] {
  return blocksOf(message)
    .filter((block) => TOOL_CALL_BLOCKS.has(block.type))
    .map((block) => {
      const call: ToolCallInput = { name: typeof block.name === 'string' ? block.name : 'unknown', arguments: block.input }
      if (typeof block.id === 'string' && block.id !== '') call.callId = block.id
      return call
    })
}

/**
 * The text blocks joined as they are: citations split one sentence into
 * several blocks, so adding separators would put them inside sentences.
 * Null when the response has no text.
 */
export function responseTextOf(message: WireMessage): string | null {
  const texts = blocksOf(message).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
  return texts.length === 0 ? null : texts.join('')
}

/**
 * A server tool's failure: MCP results carry `is_error`; the others
 * (`web_search_tool_result`, `code_execution_tool_result`, ...) carry an
 * error object such as `{ type: "web_search_tool_result_error", error_code: "max_uses_exceeded" }`.
 */
function serverToolError(block: WireBlock): string | null {
  if (block.is_error === true) return contentText(block.content) || `${block.type} reported an error`
  const content = block.content as { type?: unknown; error_code?: unknown } | null | undefined
  if (typeof content?.type === 'string' && content.type.endsWith('_error')) {
    return typeof content.error_code === 'string' ? `${content.type}: ${content.error_code}` : content.type
  }
  return null
}

/** Results of server tools found in the response, each naming the call (in the same response) it answers. */
export function serverToolResultsOf(message: WireMessage): ServerToolResult[] {
  const blocks = blocksOf(message)
  const names = new Map(toolCallsOf(message).flatMap((call) => (call.callId === undefined ? [] : [[call.callId, call.name] as const])))
  const results: ServerToolResult[] = []
  for (const block of blocks) {
    if (!block.type.endsWith('_tool_result') || typeof block.tool_use_id !== 'string') continue
    const name = names.get(block.tool_use_id)
    if (name === undefined) continue
    const error = serverToolError(block)
    results.push({ callId: block.tool_use_id, name, result: error === null ? (block.content ?? null) : null, error })
  }
  return results
}
