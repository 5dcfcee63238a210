/**
 * An MCP server's tool listing (`tools/list`) as the trace keeps tools
 * offered: kind 'mcp', the server's name, the input schema as `parameters`
 * and the output schema, when the tool has one, as `result`.
 */
import type { JsonObject, ToolDefinition } from '../../src/adapter-support/index.js'

interface ListedTool {
  name?: unknown
  description?: unknown
  inputSchema?: unknown
  outputSchema?: unknown
}

function objectOrNull(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null
}

/** The definitions of the tools `tools/list` returned, as server `server` lists them. */
export function mcpToolDefinitions(server: string | null, tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return []
  return tools.flatMap((tool: ListedTool): ToolDefinition[] => {
    if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string') return []
    const definition: ToolDefinition = {
      name: tool.name,
      kind: 'mcp',
      description: typeof tool.description === 'string' ? tool.description : null,
      parameters: objectOrNull(tool.inputSchema),
    }
    const result = objectOrNull(tool.outputSchema)
    if (result !== null) definition.result = result
    if (server !== null) definition.server = server
    return [definition]
  })
}
