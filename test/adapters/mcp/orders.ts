/**
 * The orders MCP server of fixtures/mcp/, for the tests: how to start it over
 * stdio, and a copy of it serving streamable HTTP in a child process (ended
 * when the test finishes).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { onTestFinished } from 'vitest'

export const ORDERS_SERVER_PATH = fileURLToPath(new URL('../../../fixtures/mcp/orders-server.mjs', import.meta.url))

/** The orders server over stdio, as mcpServer() takes it. */
export const ORDERS_STDIO = { command: process.execPath, args: [ORDERS_SERVER_PATH] }

/** Starts the orders server over streamable HTTP; resolves with its URL and a way to stop it (also stopped when the test finishes). */
export async function startHttpOrders(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [ORDERS_SERVER_PATH, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  onTestFinished(stop)
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  return { url: line.toString('utf8').trim(), stop }
}

export type Transport = 'stdio' | 'streamable HTTP'

/** A client of the orders server connected over `transport` (closed when the test finishes). */
export async function connectedClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'support-agent', version: '1.0.0' })
  if (transport === 'stdio') await client.connect(new StdioClientTransport(ORDERS_STDIO))
  else await client.connect(new StreamableHTTPClientTransport(new URL((await startHttpOrders()).url)))
  onTestFinished(() => client.close())
  return client
}
