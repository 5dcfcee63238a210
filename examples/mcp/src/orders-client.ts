// src/orders-client.ts
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { instrumentMcpClient } from 'reagent-flow/mcp'

// Instrument the instance once, where it is made; any transport (stdio, streamable HTTP) works.
export async function ordersClient(): Promise<Client> {
  const client = instrumentMcpClient(new Client({ name: 'support-agent', version: '1.0.0' }))
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'mcp/orders-server.ts'] }))
  return client
}
