/**
 * The `tools` of a chat completions or Responses request, as tools offered.
 * Function and custom tools are the agent's own (a custom tool's free-form
 * input has no JSON Schema: its `format`, a grammar, is kept as its
 * parameters when it has one). A Responses request may also offer the
 * tools OpenAI runs itself: an `mcp` tool (a remote MCP server, by its
 * label; which tools it lists is known only from the response) and the
 * hosted tools (`web_search`, `file_search`, `code_interpreter`, ...),
 * recorded as `provider` tools named by their type.
 */
import type { OfferedTools, ToolDefinitionInput } from '../../src/adapter-support/index.js'
import { field, stringOrNull } from './types.js'

function functionOf(fn: unknown, parameters: unknown): ToolDefinitionInput | undefined {
  const name = field(fn, 'name')
  return typeof name === 'string' ? { name, kind: 'function', description: stringOrNull(field(fn, 'description')), parameters } : undefined
}

function customOf(custom: unknown): ToolDefinitionInput | undefined {
  const format = field(custom, 'format')
  return functionOf(custom, format === undefined ? null : { format })
}

/** A tool of `chat.completions.create`: `{ type: 'function', function }` or `{ type: 'custom', custom }`. */
export function chatToolOf(tool: unknown): ToolDefinitionInput | undefined {
  const type = field(tool, 'type')
  if (type === 'custom') return customOf(field(tool, 'custom'))
  const fn = field(tool, 'function')
  return functionOf(fn, field(fn, 'parameters'))
}

/** A tool of `responses.create`: flat function and custom tools, an `mcp` server, or a hosted tool. */
export function responsesToolOf(tool: unknown): ToolDefinitionInput | undefined {
  const type = field(tool, 'type')
  if (type === 'function') return functionOf(tool, field(tool, 'parameters'))
  if (type === 'custom') return customOf(tool)
  if (type === 'mcp') {
    const label = field(tool, 'server_label')
    if (typeof label !== 'string') return undefined
    return { name: label, kind: 'mcp', description: stringOrNull(field(tool, 'server_description')), server: label }
  }
  return typeof type === 'string' ? { name: type, kind: 'provider' } : undefined
}

/** The request's `tools`, read with `read`; undefined when it has none. */
export function offeredTools(body: Record<string, unknown>, read: (tool: unknown) => ToolDefinitionInput | undefined): OfferedTools | undefined {
  const tools = body['tools']
  return Array.isArray(tools) && tools.length > 0 ? { list: tools, read, isWireData: true } : undefined
}
