export { instrumentMcpClient } from '../../adapters/mcp/instrument.js'
export { mcpServer } from '../../adapters/mcp/server.js'
export { McpServerError, isMcpServerError } from '../errors/index.js'

export type { HttpServerOptions, McpServerOptions, StdioServerOptions } from '../../adapters/mcp/connect.js'
export type { McpServerUnderTest, ToolContract } from '../../adapters/mcp/server.js'
export type { AnthropicTool, OpenAIFunctionTool } from '../../adapters/mcp/tool-formats.js'
