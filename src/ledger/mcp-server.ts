/**
 * The run operations as MCP tools, `loom_run_begin` ... `loom_run_list`, on
 * the MCP SDK's low-level server: each tool's input and output schemas are
 * the operations' own (input-schemas.ts, output-schemas.ts), and a call goes
 * through the same service as HTTP, so both answer alike. `org` and
 * `namespace` are filled from the token (HTTP) or the command's flags
 * (stdio), so the tools do not require them. A refused call is a tool result
 * with `isError` and the error body as its text.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { LedgerRequestError } from './errors.js'
import type { Caller } from '../server/caller.js'
import { OPERATION_INPUTS, RUN_OPERATIONS, type RunOperationName } from './input-schemas.js'
import { OPERATION_OUTPUTS } from './output-schemas.js'
import type { LedgerService } from './service.js'

export const MCP_SERVER_NAME = 'reagent-flow-ledger'

export function toolNameOf(operation: RunOperationName): string {
  return `loom_${operation.replace('.', '_')}`
}

const ANNOTATIONS: Record<RunOperationName, Tool['annotations']> = {
  'run.begin': { idempotentHint: true, readOnlyHint: false, destructiveHint: false },
  'run.complete': { idempotentHint: false, readOnlyHint: false, destructiveHint: false },
  'run.get': { readOnlyHint: true },
  'run.grade': { idempotentHint: true, readOnlyHint: false, destructiveHint: false },
  'run.list': { readOnlyHint: true },
  'run.stats': { readOnlyHint: true },
}

function toolOf(operation: RunOperationName): Tool {
  const { title, description, properties, required } = OPERATION_INPUTS[operation]
  return {
    name: toolNameOf(operation),
    title,
    description,
    inputSchema: { type: 'object', properties, required: required.filter((field) => field !== 'org' && field !== 'namespace') },
    outputSchema: OPERATION_OUTPUTS[operation] as unknown as Tool['outputSchema'],
    annotations: ANNOTATIONS[operation],
  }
}

const TOOLS = new Map(RUN_OPERATIONS.map((operation) => [toolNameOf(operation), { operation, tool: toolOf(operation) }]))

/**
 * An MCP server of the ledger's tools. `callerOf` says who calls, from the
 * auth info the transport passes (the HTTP route puts the token's caller in
 * `authInfo.extra.caller`) or, for stdio, always the same one.
 */
export function createMcpServer(service: LedgerService, callerOf: (authExtra: Record<string, unknown> | undefined) => Caller, version: string): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS.values()].map((entry) => entry.tool) }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const entry = TOOLS.get(request.params.name)
    if (entry === undefined) {
      const body = { error: 'unknown_operation', message: `no tool "${request.params.name}"; the tools are ${[...TOOLS.keys()].join(', ')}` }
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] }
    }
    try {
      const out = (await service.call(entry.operation, callerOf(extra.authInfo?.extra), request.params.arguments ?? {})) as Record<string, unknown>
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out }
    } catch (error) {
      if (!(error instanceof LedgerRequestError)) throw error
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(error.body) }] }
    }
  })
  return server
}
