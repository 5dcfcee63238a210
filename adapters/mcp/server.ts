/**
 * `mcpServer(options)`: an MCP server under test. It starts the server
 * (stdio) or reaches it (streamable HTTP), initializes it and lists its
 * tools through an instrumented client, then hands the tools to an agent
 * under test in the form its framework takes, snapshots them as a contract,
 * and ends the server with `close()`; inside a vitest test it is closed when
 * the test ends anyway, and its standard error is printed when the test fails.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { normalToolSet, type ToolDefinition } from '../../src/adapter-support/index.js'
import { connectServer, exitedWhile, type McpServerOptions } from './connect.js'
import { mcpToolDefinitions } from './tool-definitions.js'
import { aiSdkToolsOf, anthropicToolsOf, langchainToolsOf, openaiToolsOf, type AnthropicTool, type OpenAIFunctionTool } from './tool-formats.js'

/** A server's tools as a contract file holds them (docs/contracts.md). */
export interface ToolContract {
  contract_version: 1
  name: string
  tools: ToolDefinition[]
}

export interface McpServerUnderTest {
  /** The instrumented client: every `listTools` and `callTool` made in a session is recorded. */
  readonly client: Client
  /** The name the server gave in `initialize`. */
  readonly name: string
  /** The server's process id (stdio); null for a server reached over HTTP. */
  readonly pid: number | null
  /** The tools the server listed when it started. */
  tools(): Tool[]
  /** Its tools as a contract: `{ contract_version: 1, name, tools }`, tool definitions of kind `mcp`, sorted. */
  contract(): ToolContract
  /** Its tools as OpenAI chat-completions function tools. */
  openaiTools(): OpenAIFunctionTool[]
  /** Its tools as Anthropic Messages tools. */
  anthropicTools(): AnthropicTool[]
  /** Its tools as AI SDK tools by name, each calling the server (loads `ai`). */
  aiSdkTools(): ReturnType<typeof aiSdkToolsOf>
  /** Its tools as LangChain tools, each calling the server (loads `@langchain/core`). */
  langchainTools(): ReturnType<typeof langchainToolsOf>
  /**
   * Calls tool `name` with `args` (recorded inside a session, as any call of the client). A stdio
   * server that exited is an `McpServerError` with its exit code and the last lines of its stderr.
   */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>
  /** What the server wrote to standard error so far (stdio; '' for HTTP). */
  log(): string
  /** Ends the server: the client closes, and a stdio server's process is gone when this resolves. Closing again does nothing. */
  close(): Promise<void>
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed
}

/** Every tool the server lists, page after page. */
async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = []
  let cursor: string | undefined
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return tools
}

/**
 * Inside a vitest test: close the server when the test ends (a forgotten
 * `close()` leaks no process) and show its stderr when the test fails.
 * Elsewhere (a `beforeAll`, a script), closing is the caller's.
 */
async function closeWithTest(server: McpServerUnderTest, label: string): Promise<void> {
  if (process.env.VITEST === undefined) return
  try {
    const vitest = await import('vitest')
    vitest.onTestFailed(() => {
      const log = server.log().trimEnd()
      if (log !== '') console.error(`MCP server "${label}" wrote to stderr:\n${log}`)
    })
    vitest.onTestFinished(() => server.close())
  } catch {
    // Not inside a test: onTestFinished throws there.
  }
}

/**
 * Starts (`{ command, args, env, cwd }`) or reaches (`{ url, headers }`) an
 * MCP server, initializes it and lists its tools. Throws an `McpServerError`
 * when it does not start, exits, or does not answer `initialize` within
 * `timeoutMs` (default 10 s), with its exit code and the last lines of its stderr.
 *
 * @example
 * const orders = await mcpServer({ command: 'node', args: ['orders-server.mjs'] })
 * const s = await agentSession(() => supportAgent(orders.openaiTools(), orders.call, 'Refund order 42'))
 * expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount_eur: 30 })
 */
export async function mcpServer(options: McpServerOptions): Promise<McpServerUnderTest> {
  const { client, label, child } = await connectServer(options)
  let listed: Tool[]
  try {
    listed = await listAll(client)
  } catch (error) {
    await client.close()
    throw error
  }
  const name = client.getServerVersion()?.name ?? label
  let closing: Promise<void> | undefined
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    try {
      return (await client.callTool({ name: tool, arguments: args })) as CallToolResult
    } catch (error) {
      // A server that died under the call: say so, with its exit code and stderr, rather than "Connection closed".
      const exit =
        child === undefined || closing !== undefined ? undefined : (child.exit ?? (isConnectionClosed(error) ? await child.waitForExit(1000) : undefined))
      if (child !== undefined && exit !== undefined) throw exitedWhile(label, child, exit, `calling ${tool}`)
      throw error
    }
  }
  const server: McpServerUnderTest = {
    client,
    name,
    pid: child?.pid ?? null,
    tools: () => structuredClone(listed),
    contract: () => ({ contract_version: 1, name, tools: normalToolSet(mcpToolDefinitions(name, listed)) }),
    openaiTools: () => openaiToolsOf(listed),
    anthropicTools: () => anthropicToolsOf(listed),
    aiSdkTools: () => aiSdkToolsOf(listed, call),
    langchainTools: () => langchainToolsOf(listed, call),
    call,
    log: () => child?.stderr ?? '',
    close: () =>
      (closing ??= (async () => {
        await client.close()
        // The SDK ends the process (stdin closed, then SIGTERM, then SIGKILL); it is gone once it has exited.
        await child?.waitForExit(5000)
      })()),
  }
  await closeWithTest(server, label)
  return server
}
