/**
 * What `serve` runs once its packages are there (this module loads the
 * server framework): the store, the server, the start line, and a clean stop
 * on SIGINT or SIGTERM (the requests in flight finish, the store is closed,
 * nothing is left half-written). A second signal stops at once.
 */
import { startLedgerServer } from '../ledger/ledger-server.js'
import { openStore } from '../ledger/open-store.js'
import { readTokenFile } from '../ledger/tokens.js'
import { singleUser } from '../ledger/identity.js'
import type { RouteGroup } from '../server/route-group.js'
import { EXIT_OK } from './command.js'
import type { CommandContext } from './command.js'
import type { LedgerSettings } from './ledger-options.js'

export interface ServeSettings extends LedgerSettings {
  host: string
  port: number
  tokenFile: string | undefined
  /** Also serve the trace viewer of this directory, at `/`. */
  viewDir?: string | undefined
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/** Resolves with the first of SIGINT and SIGTERM; a second one exits the process at once. */
export function nextSignal(ctx: CommandContext): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals): void => {
      for (const name of SIGNALS) process.off(name, first)
      const again = (): void => {
        ctx.note('stopped at once: a second signal')
        process.exit(signal === 'SIGINT' ? 130 : 143)
      }
      for (const name of SIGNALS) process.once(name, again)
      resolve(signal)
    }
    for (const name of SIGNALS) process.on(name, first)
  })
}

/** The viewer's route group over `dir` (its modules loaded only when asked for). */
async function viewerGroup(dir: string, settings: LedgerSettings): Promise<{ group: RouteGroup }> {
  const { TraceIndex } = await import('../viewer/trace-index.js')
  const { viewerRoutes } = await import('../viewer/viewer-routes.js')
  const index = new TraceIndex({ dir, prices: settings.prices, watch: true })
  return { group: viewerRoutes({ index, owner: singleUser(settings.org, settings.namespace) }) }
}

export async function serveLedger(settings: ServeSettings, ctx: CommandContext): Promise<number> {
  const tokens = settings.tokenFile === undefined ? undefined : readTokenFile(settings.tokenFile)
  const store = await openStore({ store: settings.store, org: settings.org, namespace: settings.namespace })
  let server
  const viewer = settings.viewDir === undefined ? undefined : await viewerGroup(settings.viewDir, settings)
  try {
    const groups = viewer === undefined ? [] : [viewer.group]
    server = await startLedgerServer({
      store,
      host: settings.host,
      port: settings.port,
      tokens,
      org: settings.org,
      namespace: settings.namespace,
      prices: settings.prices,
      groups,
    })
  } catch (error) {
    await viewer?.group.close?.()
    await store.close()
    throw error
  }
  const access =
    tokens === undefined
      ? `single user (org ${settings.org}, namespace ${settings.namespace}), loopback only`
      : `${tokens.size} token(s) from ${settings.tokenFile}`
  const viewerUrl = viewer === undefined ? null : `${server.url}/`
  // Listening for the signals before saying where it listens: a caller may stop it the moment it reads that.
  const stopped = nextSignal(ctx)
  if (ctx.json)
    ctx.printJson({
      url: `${server.url}/v1`,
      mcp: `${server.url}/mcp`,
      viewer: viewerUrl,
      store: { kind: store.kind, location: store.location },
      tokens: tokens?.size ?? null,
    })
  else {
    const viewing = viewerUrl === null ? '' : ` · the trace viewer on ${viewerUrl}`
    ctx.print(
      `reagent-flow serve: the run ledger on ${server.url}/v1 and MCP on ${server.url}/mcp${viewing} · store: ${store.kind} ${store.location} · ${access}`,
    )
  }
  const signal = await stopped
  ctx.note(`${signal}: stopping after the requests in flight`)
  await server.close()
  ctx.note('stopped')
  return EXIT_OK
}
