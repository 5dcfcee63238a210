/**
 * What an orchestrator and a monitoring system ask the server, answered
 * before its access rules (a probe has no token): `GET /healthz` (the process
 * is up and serving: always 200), `GET /readyz` (it can do its work: 200, or
 * 503 naming what is not ready, the store or a shutdown under way), and
 * `GET /metrics` (Prometheus), which has a token of its own when it has one at
 * all (see MetricsAccess). Their bodies say "ok" or name a part and a state,
 * never an address, an error's text or a token: the details go to the log.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import { errorResponse, type ServerEnv } from './route-group.js'

/** Each part the server needs, and whether it is ready (`ok`) or not (a state: `unreachable`, `shutting down`). */
export type Readiness = Record<string, string>

export interface MetricsSource {
  render(): Promise<{ contentType: string; body: string }>
}

/**
 * Who may read /metrics: everyone who reaches the server (`open`: a
 * single-user server on loopback), the holder of `token` (a scraper's bearer
 * token, apart from the ledger's), or nobody (`closed`: a server with a token
 * file and no metrics token; ledger tokens are scoped to a team, metrics are
 * the whole server's).
 */
export type MetricsAccess = { kind: 'open' } | { kind: 'token'; token: string } | { kind: 'closed' }

export interface ProbeOptions {
  /** The parts to check, each `ok` or its state. */
  readiness: () => Promise<Readiness>
  /** True from the moment a shutdown begins. */
  draining: () => boolean
  metrics?: { source: MetricsSource; access: MetricsAccess } | undefined
}

export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

function presents(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1]
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

export function probeRoutes(options: ProbeOptions): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>()
  // Probes arrive every few seconds from every replica's orchestrator: one check answers all those that arrive while it runs.
  let checking: Promise<Readiness> | undefined
  const check = (): Promise<Readiness> => {
    checking ??= options.readiness().finally(() => {
      checking = undefined
    })
    return checking
  }

  app.get('/healthz', () => json(200, { status: 'ok' }))
  app.get('/readyz', async () => {
    const checks: Readiness = { server: options.draining() ? 'shutting down' : 'ok', ...(await check()) }
    const ready = Object.values(checks).every((state) => state === 'ok')
    return json(ready ? 200 : 503, { ready, checks })
  })
  app.get('/metrics', async (c) => {
    const metrics = options.metrics
    if (metrics === undefined) return errorResponse(404, 'not_found', 'this server has no metrics')
    const { access } = metrics
    if (access.kind === 'closed') {
      return errorResponse(
        403,
        'forbidden',
        '/metrics of a server with --token-file needs a token of its own: start it with --metrics-token-file <file> and scrape with "Authorization: Bearer <that token>"',
      )
    }
    if (access.kind === 'token' && !presents(c.req.header('authorization'), access.token)) {
      const refused = errorResponse(401, 'unauthorized', '/metrics needs "Authorization: Bearer <token>" with the token of --metrics-token-file')
      refused.headers.set('www-authenticate', 'Bearer')
      return refused
    }
    const { contentType, body } = await metrics.source.render()
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } })
  })
  return app
}
