/**
 * `reagent-flow serve` without the command line: a store, the service over
 * it, and the HTTP server with the ledger's route groups (`/v1`, `/mcp`)
 * mounted. Callers check the optional packages first (requirePackages), as
 * this module imports the server framework.
 */
import type { ModelCost } from '../trace/cost.js'
import { startHttpServer, type RunningServer, type ServerTimeouts } from '../server/http-server.js'
import type { RouteGroup } from '../server/route-group.js'
import { ledgerRoutes } from './http-routes.js'
import { singleUser } from './identity.js'
import { mcpRoutes } from './mcp-routes.js'
import { LedgerService } from './service.js'
import type { LedgerStore } from './store.js'
import type { TokenRegistry } from '../server/caller.js'

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
  log?: (line: string) => void
  now?: () => number
  graceMs?: number
  timeouts?: Partial<ServerTimeouts>
}

export interface LedgerServer extends RunningServer {
  service: LedgerService
}

export async function startLedgerServer(options: LedgerServerOptions): Promise<LedgerServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`))
  const service = new LedgerService(options.store, {
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.now === undefined ? {} : { now: options.now }),
  })
  const server = await startHttpServer({
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    tokens: options.tokens,
    owner: singleUser(options.org, options.namespace),
    // The ledger's group last: it closes the store once the others are done with it.
    groups: [mcpRoutes(service), ...(options.groups ?? []), ledgerRoutes(service, log)],
    log,
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    timeouts: options.timeouts,
  })
  return Object.assign(server, { service })
}
