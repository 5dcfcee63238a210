/**
 * `instrumentMcpClient(client)`: the MCP client of @modelcontextprotocol/sdk,
 * recorded. Its instance's `listTools` and `callTool` are patched (never a
 * Proxy, never the shared prototype), once; outside a session they behave
 * exactly as before.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { currentSession, markInstrumented, offerToolSet, patchMethod, recordSafely, runReplayableStep, runToolIn } from '../../src/adapter-support/index.js'
import { mcpToolDefinitions } from './tool-definitions.js'
import { resultOfFailure, throwIfFailed } from './tool-result.js'

/** Shared by every copy of this adapter in the process, so two copies never patch one client twice. */
const INSTRUMENTED = Symbol.for('reagent-flow.mcp.instrumented')

/** The step a tool listing is kept as in a recording (a tool call of the trace it is not). */
const LIST_TOOLS_STEP = 'mcp tools/list'

type ListTools = Client['listTools']
type CallTool = Client['callTool']
type ListToolsResult = Awaited<ReturnType<ListTools>>

/** What a listing is kept as: the tools and the server that listed them, so a replay without the server still knows its name. */
interface Listing {
  server: string | null
  result: ListToolsResult
}

/**
 * Instruments an MCP client (`new Client(...)` of @modelcontextprotocol/sdk,
 * over any transport) so that inside a `session()`:
 *
 * - `listTools()` keeps the server's tools on the trace as a tool set (kind
 *   `mcp`, `server` the name the server gave in `initialize`);
 * - `callTool()` is recorded as the result of the tool call the model made
 *   (or a result of its own, when no model asked): the server's result, or
 *   its error, an `isError` result and a thrown protocol error alike.
 *
 * Both go through the call lifecycle every tool shares: with `replayTools:
 * true` a replayed session answers them from its recording (the client need
 * not be connected: the server need not run), and `faults: [{ tool, error }]`
 * fail the call with a `ToolFaultError` instead of calling the server.
 * Returns the same client; instrumenting it again changes nothing.
 *
 * @example
 * const client = instrumentMcpClient(new Client({ name: 'support-agent', version: '1.0.0' }))
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['orders-server.mjs'] }))
 * const s = await session('support', () => supportAgent(client, 'Refund order 42'))
 * s.assertCalled('issue_refund')
 */
export function instrumentMcpClient<C extends Client>(client: C): C {
  const target = client as unknown as Partial<Record<'listTools' | 'callTool', unknown>> | null | undefined
  if (target === null || typeof target !== 'object' || typeof target.callTool !== 'function' || typeof target.listTools !== 'function') {
    const got = target === null ? 'null' : typeof target === 'object' ? 'an object without listTools and callTool' : typeof target
    throw new TypeError(`instrumentMcpClient(client) needs an MCP client (new Client() from "@modelcontextprotocol/sdk/client/index.js"), got ${got}.`)
  }
  if (!markInstrumented(client, INSTRUMENTED)) return client
  patchMethod<ListTools>(
    client,
    'listTools',
    (listTools) =>
      function (this: C, params, options) {
        const s = currentSession()
        if (s === undefined) return listTools.call(this, params, options)
        const listed = runReplayableStep(s, LIST_TOOLS_STEP, params ?? {}, async (): Promise<Listing> => {
          const result = await listTools.call(this, params, options)
          return { server: this.getServerVersion()?.name ?? null, result }
        })
        return listed.then(({ server, result }) => {
          recordSafely('mcp', 'the tools the server listed', () => offerToolSet(s, mcpToolDefinitions(server, result.tools)))
          return result
        })
      },
  )
  patchMethod<CallTool>(
    client,
    'callTool',
    (callTool) =>
      function (this: C, params, resultSchema, options) {
        const s = currentSession()
        const name = params?.name
        if (s === undefined || typeof name !== 'string') return callTool.call(this, params, resultSchema, options)
        const called = runToolIn(
          s,
          name,
          undefined,
          params.arguments ?? {},
          async () => throwIfFailed(await callTool.call(this, params, resultSchema, options)),
          true,
        )
        return called.catch((error: unknown) => {
          const result = resultOfFailure(error)
          if (result === undefined) throw error
          return result as Awaited<ReturnType<CallTool>>
        })
      },
  )
  return client
}
