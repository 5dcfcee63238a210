/**
 * The tools of an Agents SDK model request, as tools offered: its function
 * tools (JSON Schema parameters, and the output schema when the tool has
 * one), its handoffs (a `handoff` tool each, by the tool name the model
 * calls it by), a hosted MCP server (`hostedMcpTool`, an `mcp` tool by its
 * server label) and the other tools the SDK or the provider runs (computer,
 * shell, web search, ...) as `provider` tools by their name.
 */
import type { OfferedTools, ToolDefinitionInput } from '../../src/adapter-support/index.js'
import { field, stringOrNull } from './wire.js'

function toolOf(tool: unknown): ToolDefinitionInput | undefined {
  const name = field(tool, 'name')
  const toolName = field(tool, 'toolName')
  if (typeof toolName === 'string') {
    return { name: toolName, kind: 'handoff', description: stringOrNull(field(tool, 'toolDescription')), parameters: field(tool, 'inputJsonSchema') }
  }
  if (typeof name !== 'string') return undefined
  const type = field(tool, 'type')
  if (type === 'function') {
    return {
      name,
      kind: 'function',
      description: stringOrNull(field(tool, 'description')),
      parameters: field(tool, 'parameters'),
      result: field(tool, 'outputSchema'),
    }
  }
  const providerData = field(tool, 'providerData')
  if (type === 'hosted_tool' && field(providerData, 'type') === 'mcp') {
    const label = stringOrNull(field(providerData, 'server_label'))
    if (label === null) return undefined
    return { name: label, kind: 'mcp', description: stringOrNull(field(providerData, 'server_description')), server: label }
  }
  return { name, kind: 'provider' }
}

/** The request's tools and handoffs; undefined when it offers none. */
export function offeredTools(request: unknown): OfferedTools | undefined {
  const tools = field(request, 'tools')
  const handoffs = field(request, 'handoffs')
  const list = [...(Array.isArray(tools) ? tools : []), ...(Array.isArray(handoffs) ? handoffs : [])]
  // A new array for every call (tools and handoffs together): known again by its text.
  return list.length > 0 ? { list, read: toolOf, isWireData: true } : undefined
}
