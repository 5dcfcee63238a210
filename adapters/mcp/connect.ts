/**
 * Starting (stdio) or reaching (streamable HTTP) an MCP server and
 * initializing it, for `mcpServer()`. A server that does not start, exits or
 * does not answer `initialize` in time is an `McpServerError` saying which,
 * with its exit code and the last lines of its standard error.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { McpServerError } from '../../src/adapter-support/index.js'
import { instrumentMcpClient } from './instrument.js'
import { StdioChild, type Exit } from './stdio-child.js'

/** A server `mcpServer()` starts, and talks to over its standard input and output. */
export interface StdioServerOptions {
  command: string
  args?: readonly string[]
  /** Added to the environment the SDK gives a server (PATH, HOME, ...; not the whole of this process's). */
  env?: Record<string, string>
  cwd?: string
  /** How long it has to start and answer `initialize`. Default 10 000 ms. */
  timeoutMs?: number
}

/** A server that runs already, reached over streamable HTTP. */
export interface HttpServerOptions {
  url: string | URL
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Record<string, string>
  /** How long it has to answer `initialize`. Default 10 000 ms. */
  timeoutMs?: number
}

export type McpServerOptions = StdioServerOptions | HttpServerOptions

export interface Connected {
  client: Client
  /** What messages call the server: its command line, or its URL. */
  label: string
  /** The process of a stdio server. */
  child: StdioChild | undefined
}

const DEFAULT_TIMEOUT_MS = 10_000

/** The client `mcpServer()` speaks as. */
const CLIENT_INFO = { name: 'reagent-flow', version: '1' }

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** ` (last 2 lines of its stderr):\n  a\n  b`, or `; it wrote nothing to stderr`. */
function stderrPart(child: StdioChild): string {
  const lines = child.lastLines()
  if (lines.length === 0) return '; it wrote nothing to stderr'
  return ` (last ${lines.length === 1 ? 'line' : `${lines.length} lines`} of its stderr):\n${lines.map((line) => `  ${line}`).join('\n')}`
}

function exitText(exit: Exit): string {
  return exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal ?? 'a signal'}`
}

/** The error for a stdio server that exited while `doing` ("calling lookup_order"): its exit code and stderr. */
export function exitedWhile(label: string, child: StdioChild, exit: Exit, doing: string): McpServerError {
  return new McpServerError(`MCP server "${label}" ${exitText(exit)} while ${doing}${stderrPart(child)}`, {
    server: label,
    exitCode: exit.code,
    stderr: child.lastLines().join('\n'),
  })
}

/** The error for a stdio server that failed to initialize with `error`. */
async function stdioFailure(label: string, child: StdioChild, error: unknown, timeoutMs: number): Promise<McpServerError> {
  const fields = (exit: Exit | undefined) => ({ server: label, exitCode: exit?.code ?? null, stderr: child.lastLines().join('\n') })
  if (child.pid === null) {
    return new McpServerError(`MCP server "${label}" did not start: ${messageOf(error)}. Check its command, args and cwd.`, fields(undefined))
  }
  // A closed connection is the process ending: its exit comes a moment later.
  const exit = isTimeout(error) ? child.exit : await child.waitForExit(2000)
  if (exit !== undefined) {
    return new McpServerError(`MCP server "${label}" ${exitText(exit)} before answering initialize${stderrPart(child)}`, fields(exit))
  }
  if (isTimeout(error)) {
    return new McpServerError(
      `MCP server "${label}" did not answer initialize within ${timeoutMs} ms${stderrPart(child)}\nIf it starts slowly, raise timeoutMs.`,
      fields(undefined),
    )
  }
  return new McpServerError(`MCP server "${label}" failed to initialize: ${messageOf(error)}${stderrPart(child)}`, fields(undefined))
}

async function connectStdio(options: StdioServerOptions, timeoutMs: number): Promise<Connected> {
  const label = [options.command, ...(options.args ?? [])].join(' ')
  const transport = new StdioClientTransport({
    command: options.command,
    args: [...(options.args ?? [])],
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stderr: 'pipe',
  })
  const child = new StdioChild(transport)
  const client = instrumentMcpClient(new Client(CLIENT_INFO))
  try {
    await client.connect(transport, { timeout: timeoutMs })
  } catch (error) {
    const failure = await stdioFailure(label, child, error, timeoutMs)
    await Promise.all([transport.close(), child.end()])
    throw failure
  }
  return { client, label, child }
}

async function connectHttp(options: HttpServerOptions, timeoutMs: number): Promise<Connected> {
  const label = String(options.url)
  const transport = new StreamableHTTPClientTransport(new URL(options.url), options.headers === undefined ? {} : { requestInit: { headers: options.headers } })
  const client = instrumentMcpClient(new Client(CLIENT_INFO))
  try {
    await client.connect(transport, { timeout: timeoutMs })
  } catch (error) {
    await transport.close()
    const fields = { server: label, exitCode: null, stderr: '' }
    if (isTimeout(error))
      throw new McpServerError(`MCP server at ${label} did not answer initialize within ${timeoutMs} ms. If it starts slowly, raise timeoutMs.`, fields)
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ''
    throw new McpServerError(
      `MCP server at ${label} could not be initialized: ${messageOf(error)}${cause}. Check that it runs and serves MCP at this URL.`,
      fields,
    )
  }
  return { client, label, child: undefined }
}

/** Starts or reaches the server `options` name and initializes it, through an instrumented client. */
export function connectServer(options: McpServerOptions): Promise<Connected> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return 'url' in options ? connectHttp(options, timeoutMs) : connectStdio(options, timeoutMs)
}
