/**
 * `reagent-flow serve` without the command line: a store, the service over
 * it, and the HTTP server with the ledger's route groups (`/v1`, `/mcp`)
 * mounted (and the team viewer at `/ledger/` when asked for), its probes (`/healthz`, `/readyz`: the store answers a ping) and
 * its Prometheus metrics (`/metrics`). Callers check the optional packages
 * first (requirePackages), as this module imports the server framework and
 * prom-client.
 */
import type { ModelCost } from '../trace/cost.js'
import { startHttpServer, type RunningServer, type ServerTimeouts } from '../server/http-server.js'
import { ServerMetrics } from '../server/metrics.js'
import type { MetricsAccess, Readiness } from '../server/probes.js'
import type { RouteGroup } from '../server/route-group.js'
import type { LogFormat, LogLevel } from '../server/server-log.js'
import { defaultPriceTable } from '../storage/index.js'
import { ledgerViewerRoutes } from '../viewer/ledger-routes.js'
import { ledgerRoutes } from './http-routes.js'
import { singleUser } from './identity.js'
import { mcpRoutes } from './mcp-routes.js'
import { ObservedStore } from './observed-store.js'
import { projectsOf, startRetention, type Retention, type RetentionOptions, type RetentionSettings } from './retention.js'
import { LedgerService } from './service.js'
import type { LedgerStore } from './store.js'
import type { TokenRegistry } from '../server/caller.js'

/** How long /readyz waits for the store: an orchestrator's probe gives up after 1 s by default. */
export const READY_TIMEOUT_MS = 900

export interface LedgerServerOptions {
  store: LedgerStore
  host?: string
  port: number
  tokens?: TokenRegistry | undefined
  /** The single user's org and namespace (and the identity of runs session() writes to a directory store). */
  org: string
  namespace: string
  prices?: ReadonlyMap<string, ModelCost>
  /** Route groups to mount beside the ledger's (the viewer's). */
  groups?: readonly RouteGroup[]
  /** Serve the team viewer at `/ledger/` (the ledger's runs, traces and trends, for every token that may read): where goldens are filed, or undefined for none. */
  teamViewer?: { goldenDir: string | undefined } | undefined
  /** Where the log's lines go. Default: stderr. */
  log?: (line: string) => void
  logFormat?: LogFormat
  logLevel?: LogLevel
  /** The bearer token of /metrics (`--metrics-token-file`). Without one, /metrics is open on a single-user server and closed on one with tokens. */
  metricsToken?: string | undefined
  now?: () => number
  graceMs?: number
  timeouts?: Partial<ServerTimeouts>
  /** Prune every project the server serves, a while after start and then daily (`serve --retention`). */
  retention?: (RetentionSettings & Pick<RetentionOptions, 'firstDelayMs' | 'intervalMs'>) | undefined
}

export interface LedgerServer extends RunningServer {
  service: LedgerService
}

function metricsAccess(options: LedgerServerOptions): MetricsAccess {
  if (options.metricsToken !== undefined) return { kind: 'token', token: options.metricsToken }
  return options.tokens === undefined ? { kind: 'open' } : { kind: 'closed' }
}

export async function startLedgerServer(options: LedgerServerOptions): Promise<LedgerServer> {
  const metrics = new ServerMetrics()
  // The log exists once the server does; the store reports to it through this.
  const events: { log?: RunningServer['log'] } = {}
  const store = new ObservedStore(options.store, {
    log: { request: () => {}, event: (...args) => events.log?.event(...args) },
    onError: (operation, kind) => metrics.storeError(operation, kind),
  })
  if (store.pool !== undefined) metrics.watchPool(store.pool)
  if (store.writeQueue !== undefined) metrics.watchWriteQueue(store.writeQueue)
  const service = new LedgerService(store, {
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.now === undefined ? {} : { now: options.now }),
  })
  const readiness = async (): Promise<Readiness> => {
    try {
      await store.ping(READY_TIMEOUT_MS)
      return { store: 'ok' }
    } catch {
      return { store: 'unreachable' }
    }
  }
  const teamViewer =
    options.teamViewer === undefined
      ? []
      : [ledgerViewerRoutes({ service, prices: options.prices ?? defaultPriceTable(), goldenDir: options.teamViewer.goldenDir })]
  const routes = ledgerRoutes(service, { request: () => {}, event: (...args) => events.log?.event(...args) })
  let retention: Retention | undefined
  // The store closes once a prune in flight has finished.
  const closeStore = routes.close
  routes.close = async () => {
    await retention?.stop()
    await closeStore?.()
  }
  const server = await startHttpServer({
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    tokens: options.tokens,
    owner: singleUser(options.org, options.namespace),
    // The ledger's group last: it closes the store once the others are done with it.
    groups: [mcpRoutes(service), ...(options.groups ?? []), ...teamViewer, routes],
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.logFormat === undefined ? {} : { logFormat: options.logFormat }),
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    probes: { readiness, metrics: { source: metrics, access: metricsAccess(options) } },
    observer: metrics,
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    timeouts: options.timeouts,
  })
  events.log = server.log
  if (options.retention !== undefined) {
    const projects = projectsOf([singleUser(options.org, options.namespace), ...(options.tokens?.callers() ?? [])])
    retention = startRetention({ ...options.retention, service, projects, log: server.log })
  }
  const close = server.close
  // A shutdown starts no prune: the schedule stops at once, and the store closes after a prune in flight.
  server.close = () => {
    void retention?.stop()
    return close()
  }
  return Object.assign(server, { service })
}
