/**
 * The one HTTP server of reagent-flow: Hono on Node's http module, with the
 * route groups a command mounts (the ledger, MCP, the viewer), behind one set
 * of access rules (access.ts), the probes before them (probes.ts: /healthz,
 * /readyz, /metrics), one line of log per request (server-log.ts), and a
 * shutdown that answers /readyz 503, stops taking connections, lets the
 * requests in flight finish (up to graceMs), then closes the route groups
 * (their stores) in order. Slow clients cannot hold
 * its connections: the headers, the whole request and an idle kept-alive
 * connection each have a time limit (ServerTimeouts).
 */
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, Server } from 'node:http'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { UsageError } from '../errors/index.js'
import type { Caller, TokenRegistry } from './caller.js'
import { access, isLoopback } from './access.js'
import { PROBE_PATHS, probeRoutes, type ProbeOptions } from './probes.js'
import { errorResponse, type RouteGroup, type ServerEnv } from './route-group.js'
import { createServerLog, type LogFormat, type LogLevel, type ServerLog } from './server-log.js'

/** Told of each request as it arrives and once its answer is sent (the metrics). */
export interface RequestObserver {
  requestStarted(): void
  requestFinished(operation: string, status: number, seconds: number): void
}

/** How long a client may take; Node's own defaults (60 s for headers, 300 s per request) let slow clients hold sockets for minutes. */
export interface ServerTimeouts {
  /** The request line and headers arrive within this, or the connection is closed. Default: 10 s. */
  headersMs: number
  /** The whole request, body included, arrives within this. Default: 60 s (64 MB at about 1 MB/s). */
  requestMs: number
  /** A kept-alive connection with no request is closed after this. Default: 5 s. */
  idleMs: number
}

/** How long the requests whose connections a shutdown closed get to notice before the route groups close: reading a body stops at once. */
const CUT_REQUESTS_MS = 1000

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
  /** Where the log's lines go. Default: stderr. */
  log?: (line: string) => void
  /** Default: text. */
  logFormat?: LogFormat
  /** Default: info (probes are logged at debug). */
  logLevel?: LogLevel
  /** /readyz's checks and /metrics; without them /readyz checks only that the server is not shutting down. */
  probes?: Omit<ProbeOptions, 'draining'> | undefined
  observer?: RequestObserver | undefined
  /** How long shutdown waits for requests in flight before closing their connections. Default: 10 s. */
  graceMs?: number
  /** Limits on slow clients (see ServerTimeouts). */
  timeouts?: Partial<ServerTimeouts> | undefined
}

export interface RunningServer {
  /** `http://127.0.0.1:4319` */
  url: string
  port: number
  /** The server's log (a command adds its events: start, shutdown). */
  log: ServerLog
  /** Stops taking requests, waits for those in flight (up to graceMs), then closes the route groups. */
  close(): Promise<void>
}

interface Exchange {
  /** The caller's token name; `-` until the access rules accept one. */
  caller: string
  answered(status: number): void
}

/** `/v1/run.list` -> the group's operation; probes by name; no group: `not_found`. */
function operationFinder(groups: readonly RouteGroup[]): (path: string) => { operation: string; route: string } {
  // The longest path first: `/v1` before `/`.
  const ordered = [...groups].sort((a, b) => b.path.length - a.path.length)
  return (path) => {
    if (PROBE_PATHS.has(path)) return { operation: path.slice(1), route: path }
    for (const group of ordered) {
      const prefix = group.path === '/' ? '' : group.path
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue
      if (group.operation === undefined) return { operation: group.path.slice(1) || 'root', route: group.path }
      const operation = group.operation(path.slice(prefix.length + 1))
      return { operation, route: prefix === '' ? operation : `${prefix}/${operation}` }
    }
    return { operation: 'not_found', route: '-' }
  }
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  if (options.tokens === undefined && !isLoopback(host)) {
    throw new UsageError(
      `--host ${host} is not a loopback address: a server reachable from other machines needs --token-file (see "reagent-flow serve --help")`,
    )
  }
  const log = createServerLog({
    format: options.logFormat ?? 'text',
    level: options.logLevel ?? 'info',
    ...(options.log === undefined ? {} : { write: options.log }),
  })
  let inFlight = 0
  let drained: (() => void) | undefined
  let draining = false
  /** Requests Hono is working on: one whose connection was closed at the drain timeout still ends (its client gone) before the stores close. */
  let handling = 0
  let handled: (() => void) | undefined
  /** Each request until it is logged: its caller (once the access rules let it through) and its answer's status. */
  const exchanges = new WeakMap<IncomingMessage, Exchange>()
  const operationOf = operationFinder(options.groups)

  const app = new Hono<ServerEnv>()
  // Outermost: the status Hono answered with, which the log needs even when the client left before it was sent.
  app.use(async (c, next) => {
    handling += 1
    try {
      await next()
    } finally {
      handling -= 1
      if (handling === 0) handled?.()
    }
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    if (incoming !== undefined) exchanges.get(incoming)?.answered(c.res.status)
  })
  app.route(
    '/',
    probeRoutes({
      readiness: options.probes?.readiness ?? (async () => ({})),
      draining: () => draining,
      metrics: options.probes?.metrics,
    }),
  )
  app.use(access({ tokens: options.tokens, owner: options.owner }))
  app.use(async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    const exchange = incoming === undefined ? undefined : exchanges.get(incoming)
    if (exchange !== undefined) exchange.caller = c.get('caller').label
    await next()
  })
  for (const group of options.groups) app.route(group.path, group.app)
  app.notFound((c) =>
    errorResponse(404, 'not_found', `no route ${c.req.method} ${c.req.path}; the ledger's operations are POST /v1/<operation>, MCP is POST /mcp`),
  )
  app.onError((error, c) => {
    const { operation } = operationOf(c.req.path)
    log.event('error', 'request_failed', `${c.req.method} ${operation} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, {
      operation,
    })
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
  // Before Hono's own listener: its middleware looks the exchange up as it starts.
  server.prependListener('request', (request: IncomingMessage, response) => {
    const start = performance.now()
    const method = request.method ?? '-'
    const { operation, route } = operationOf((request.url ?? '/').split('?')[0]!)
    inFlight += 1
    options.observer?.requestStarted()
    // Shutting down: a client's next request goes to another connection (another server), not this one.
    if (draining) response.setHeader('connection', 'close')
    let status: number | undefined
    let closed = false
    // Logged once Hono answered and the last byte left (or the client left): the duration is the client's, the status Hono's.
    const settle = (): void => {
      if (status === undefined || !closed) return
      const ms = performance.now() - start
      options.observer?.requestFinished(operation, status, ms / 1000)
      const line = { method, operation, route, status, durationMs: ms, caller: exchange.caller }
      // A probe comes every few seconds from every orchestrator: its lines are for debugging (a store lost is an event of its own).
      log.request(line, PROBE_PATHS.has(route) ? 'debug' : undefined)
    }
    const exchange: Exchange = {
      caller: '-',
      answered(answer) {
        status ??= answer
        settle()
      },
    }
    exchanges.set(request, exchange)
    response.once('close', () => {
      inFlight -= 1
      closed = true
      settle()
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
    log,
    close() {
      closing ??= (async () => {
        draining = true
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeIdleConnections()
        const graceMs = options.graceMs ?? 10_000
        if (inFlight > 0) {
          log.event('info', 'draining', `waiting up to ${graceMs / 1000} s for ${inFlight} request(s) in flight`, {
            in_flight: inFlight,
            drain_timeout_s: graceMs / 1000,
          })
          await new Promise<void>((resolve) => {
            drained = resolve
            setTimeout(resolve, graceMs).unref()
          })
        }
        if (inFlight > 0) {
          log.event('warn', 'drain_timeout', `${inFlight} request(s) still in flight after ${graceMs / 1000} s: their connections are closed`, {
            in_flight: inFlight,
          })
        }
        server.closeAllConnections()
        if (handling > 0) {
          await new Promise<void>((resolve) => {
            handled = resolve
            setTimeout(resolve, CUT_REQUESTS_MS).unref()
          })
        }
        await stopped
        for (const group of options.groups) await group.close?.()
      })()
      return closing
    },
  }
}
