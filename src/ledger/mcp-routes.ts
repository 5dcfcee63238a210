/**
 * MCP over streamable HTTP at `/mcp`, beside the ledger's operations and
 * behind the same access rules: stateless (a server and transport per
 * request, JSON responses, no session to keep), which is all five tools
 * need, and lets any number of servers share one PostgreSQL store. The
 * token's caller reaches the tools through the transport's auth info.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Hono } from 'hono'
import { PACKAGE_VERSION } from '../base/package-version.js'
import { errorResponse, type RouteGroup, type ServerEnv } from '../server/route-group.js'
import { RUN_BODY_LIMIT } from './http-routes.js'
import type { Caller } from '../server/caller.js'
import { createMcpServer } from './mcp-server.js'
import type { LedgerService } from './service.js'

export function mcpRoutes(service: LedgerService): RouteGroup {
  const app = new Hono<ServerEnv>()
  app.post('/', async (c) => {
    const caller = c.get('caller')
    const server = createMcpServer(service, (extra) => (extra?.caller as Caller | undefined) ?? caller, PACKAGE_VERSION)
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: RUN_BODY_LIMIT })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw, { authInfo: { token: '', clientId: caller.label, scopes: [], extra: { caller } } })
    } finally {
      await server.close()
    }
  })
  // Stateless: no stream to open (GET) and no session to end (DELETE).
  app.all('/', (c) => {
    const response = errorResponse(405, 'method_not_allowed', `MCP is POST /mcp (streamable HTTP, stateless), not ${c.req.method}`)
    response.headers.set('allow', 'POST')
    return response
  })
  return { path: '/mcp', app }
}
