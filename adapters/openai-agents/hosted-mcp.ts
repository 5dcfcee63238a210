/**
 * Hosted MCP (a Responses API `mcp` tool, run by the provider): its calls
 * come back as `hosted_tool_call` items, recorded as tool calls with their
 * results by model-response.ts; the server each call went to, and the tools a
 * server listed, are noted here once the response is in the trace.
 */
import { noteOnTrace, noteOnTurnOfCall, type Session } from '../../src/adapter-support/index.js'
import { field, stringOrNull } from './wire.js'

/** Notes the hosted MCP calls and tool listings among a response's `output` items. */
export function noteHostedMcp(s: Session, output: unknown): void {
  if (!Array.isArray(output)) return
  for (const item of output) {
    if (field(item, 'type') !== 'hosted_tool_call') continue
    const providerData = field(item, 'providerData')
    const server = stringOrNull(field(providerData, 'server_label'))
    const id = field(item, 'id')
    if (field(item, 'name') === 'mcp_call' && typeof id === 'string') {
      noteOnTurnOfCall(s, id, 'mcp_calls', { name: stringOrNull(field(providerData, 'name')), server })
    } else if (field(item, 'name') === 'mcp_list_tools') {
      const tools = field(providerData, 'tools')
      noteOnTrace(s, 'mcp_tools', {
        server,
        tools: Array.isArray(tools) ? tools.map((tool) => stringOrNull(field(tool, 'name'))).filter((name): name is string => name !== null) : [],
      })
    }
  }
}
