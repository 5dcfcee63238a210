/**
 * The one HTTP server of reagent-flow: Hono on Node's http module, with the
 * route groups a command mounts (the ledger, MCP, the viewer), behind one set
 * of access rules (access.ts), one line of log per request, and a shutdown
 * that stops taking connections, lets the requests in flight finish, then
 * closes the route groups (their stores) in order. Slow clients cannot hold
 * its connections: the headers, the whole request and an idle kept-alive
 * connection each have a time limit (ServerTimeouts).
 */
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { UsageError } from '../errors/index.js'
import type { Caller, TokenRegistry } from './caller.js'
import { access, isLoopback } from './access.js'
import { errorResponse, type RouteGroup, type ServerEnv } from './route-group.js'

/** How long a client may take; Node's own defaults (60 s for headers, 300 s per request) let slow clients hold sockets for minutes. */
export interface ServerTimeouts {
  /** The request line and headers arrive within this, or the connection is closed. Default: 10 s. */
  headersMs: number
  /** The whole request, body included, arrives within this. Default: 60 s (64 MB at about 1 MB/s). */
  requestMs: number
  /** A kept-alive connection with no request is closed after this. Default: 5 s. */
  idleMs: number
}

const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 60_000, idleMs: 5_000 }

export interface HttpServerOptions {
  /** Default: 127.0.0.1. Any other address needs `tokens`. */
  host?: string
  /** 0 picks a free port. */
  port: number
  /** The token file's entries; undefined for a single-user server. */
  tokens?: TokenRegistry | undefined
  /** The caller of a single-user server (its org and namespace). */
  owner: Caller
  groups: readonly RouteGroup[]
  /** Where the request log goes, one line each. Default: stderr. */
  log?: (line: string) => void
  /** How long shutdown waits for requests in flight before closing their connections. Default: 10 s. */
  graceMs?: number
  /** Limits on slow clients (see ServerTimeouts). */
  timeouts?: Partial<ServerTimeouts> | undefined
}

export interface RunningServer {
  /** `http://127.0.0.1:4319` */
  url: string
  port: number
  /** Stops taking requests, waits for those in flight (up to graceMs), then closes the route groups. */
  close(): Promise<void>
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  if (options.tokens === undefined && !isLoopback(host)) {
    throw new UsageError(
      `--host ${host} is not a loopback address: a server reachable from other machines needs --token-file (see "reagent-flow serve --help")`,
    )
  }
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`))
  let inFlight = 0
  let drained: (() => void) | undefined

  const app = new Hono<ServerEnv>()
  app.use(async (c, next) => {
    const start = performance.now()
    try {
      await next()
    } finally {
      const who = c.get('caller')?.label ?? '-'
      log(`${new Date().toISOString()} ${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - start).toFixed(1)}ms ${who}`)
    }
  })
  app.use(access({ tokens: options.tokens, owner: options.owner }))
  for (const group of options.groups) app.route(group.path, group.app)
  app.notFound((c) =>
    errorResponse(404, 'not_found', `no route ${c.req.method} ${c.req.path}; the ledger's operations are POST /v1/<operation>, MCP is POST /mcp`),
  )
  app.onError((error, c) => {
    log(`${new Date().toISOString()} ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return errorResponse(500, 'internal', 'the server failed on this request; its log says why')
  })

  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    serverOptions: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.idleMs,
      // How often Node looks for connections past their headers or request time: a fraction of the shorter one.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
    },
  }) as Server
  server.keepAliveTimeout = timeouts.idleMs
  // Counted from the request to the last byte of the response written: Hono's handler returns before the response is sent.
  server.on('request', (_request, response) => {
    inFlight += 1
    response.once('close', () => {
      inFlight -= 1
      if (inFlight === 0) drained?.()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new UsageError(`${host}:${options.port} is in use: stop what listens there, or pass another --port`) : error)
    })
    server.listen(options.port, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeIdleConnections()
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve
            setTimeout(resolve, options.graceMs ?? 10_000).unref()
          })
        }
        server.closeAllConnections()
        await stopped
        for (const group of options.groups) await group.close?.()
      })()
      return closing
    },
  }
}
