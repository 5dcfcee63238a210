/**
 * What mounts on the HTTP server: a route group is a Hono app under a path
 * (`/v1` for the ledger's operations, `/mcp` for MCP, `/` for the viewer),
 * behind the server's access rules, request log and shutdown. Its handlers
 * read the caller (who the token or the single user is) from `c.get('caller')`.
 */
import type { Hono } from 'hono'
import type { Caller } from './caller.js'

export interface ServerEnv {
  Variables: { caller: Caller }
}

export interface RouteGroup {
  /** Where it is mounted: `/v1`, `/mcp`, `/`. */
  path: string
  app: Hono<ServerEnv>
  /**
   * The name of a request's operation, for the log and the metrics, from the path under the group
   * (`run.list` for `/v1/run.list`); a small fixed set, so a path a client made up is not a label.
   * Default: the group's path without its slash (`mcp`).
   */
  operation?: (subpath: string) => string
  /** Called once the server stopped taking requests and the last one finished. */
  close?: () => Promise<void>
}

/** The JSON body of an error the server itself answers (no route, a refused request). */
export function errorResponse(status: number, error: string, message: string, extra: object = {}): Response {
  return new Response(JSON.stringify({ error, message, ...extra }), { status, headers: { 'content-type': 'application/json' } })
}
