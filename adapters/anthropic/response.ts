/**
 * What a response message says, in the recorder's terms, read in one walk
 * over its blocks: the tool calls the model made (`tool_use`, and the server
 * tools the API ran itself), its text, and the results of server tools,
 * which arrive in the same response.
 *
 * The text blocks are joined as they are: citations split one sentence into
 * several blocks, so adding separators would put them inside sentences.
 */
import type { ModelResponse, ProviderToolResult, ToolCallInput, ToolOutcome } from '../../src/adapter-support/index.js'
import { contentText } from './content.js'
import type { WireBlock, WireMessage } from './wire.js'

/** Blocks in which the model calls a tool: the agent's own tools, Anthropic's server tools, MCP connector tools. */
const TOOL_CALL_BLOCKS: ReadonlySet<unknown> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use'])

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

function serverToolOutcome(block: WireBlock): ToolOutcome {
  const error = serverToolError(block)
  return error === null ? { result: block.content ?? null } : { error }
}

function toolCallOf(block: WireBlock): ToolCallInput {
  // The input object, or the raw JSON text a stream sent (the recorder parses it, keeping text that is not JSON).
  const call: ToolCallInput = { name: typeof block.name === 'string' ? block.name : 'unknown', arguments: block.input }
  if (typeof block.id === 'string' && block.id !== '') call.callId = block.id
  return call
}

/** A response message, whole or as far as a stream brought it. */
export function responseOf(message: WireMessage): ModelResponse {
  const toolCalls: ToolCallInput[] = []
  const providerToolResults: ProviderToolResult[] = []
  let responseText: string | null = null
  const blocks: unknown = message.content
  for (const block of (Array.isArray(blocks) ? blocks : []) as Array<WireBlock | null | undefined>) {
    if (typeof block !== 'object' || block === null) continue
    const { type } = block
    if (TOOL_CALL_BLOCKS.has(type)) toolCalls.push(toolCallOf(block))
    else if (type === 'text' && typeof block.text === 'string') responseText = (responseText ?? '') + block.text
    else if (typeof type === 'string' && type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
      const callId = block.tool_use_id
      const name = toolCalls.find((call) => call.callId === callId)?.name ?? type
      providerToolResults.push({ callId, name, outcome: () => serverToolOutcome(block) })
    }
  }
  return {
    toolCalls,
    responseText,
    model: typeof message.model === 'string' ? message.model : null,
    tokenUsage: message.usage ?? null,
    stopReason: message.stop_reason ?? null,
    ...(providerToolResults.length === 0 ? {} : { providerToolResults }),
  }
}
