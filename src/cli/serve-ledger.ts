/**
 * What `serve` runs once its packages are there (this module loads the
 * server framework): the store, the server, the start line (stdout) and the
 * start event (the log, on stderr), and a clean stop on SIGINT or SIGTERM:
 * /readyz answers 503, no new connection is taken, the requests in flight
 * finish within the drain timeout, the store is closed, exit 0. A second
 * signal stops at once.
 */
import { startLedgerServer } from '../ledger/ledger-server.js'
import { openStore } from '../ledger/open-store.js'
import { MIN_TOKEN_LENGTH, readTokenFile } from '../ledger/tokens.js'
import { UsageError } from '../errors/index.js'
import { readTextOrNull } from '../storage/index.js'
import { singleUser } from '../ledger/identity.js'
import type { RetentionSettings } from '../ledger/retention.js'
import type { RouteGroup } from '../server/route-group.js'
import type { LogFormat, LogLevel } from '../server/server-log.js'
import { EXIT_OK } from './command.js'
import type { CommandContext } from './command.js'
import type { LedgerSettings } from './ledger-options.js'

export interface ServeSettings extends LedgerSettings {
  host: string
  port: number
  tokenFile: string | undefined
  /** Also serve the trace viewer of this directory, at `/`. */
  viewDir?: string | undefined
  logFormat: LogFormat
  logLevel: LogLevel
  /** How long a shutdown waits for the requests in flight. */
  drainMs: number
  /** A file holding the bearer token of /metrics. */
  metricsTokenFile: string | undefined
  /** `--retention`: prune daily. */
  retention?: RetentionSettings | undefined
  /** Writes that may wait to be committed (`--write-queue`). */
  writeQueue: number
}

/** The token in `file` (its first line, trimmed), or undefined without the option. Throws UsageError naming the file. */
function readMetricsToken(file: string | undefined): string | undefined {
  if (file === undefined) return undefined
  const token = readTextOrNull(file)?.split(/\r?\n/)[0]?.trim()
  if (token === undefined) throw new UsageError(`--metrics-token-file ${file}: no such file`)
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new UsageError(
      `--metrics-token-file ${file}: the token must be ${MIN_TOKEN_LENGTH}+ characters without spaces on the file's first line (openssl rand -hex 32 > ${file})`,
    )
  }
  return token
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/** Resolves with the first of SIGINT and SIGTERM; a second one exits the process at once, after `sayStop` (default: a note on stderr). */
export function nextSignal(ctx: CommandContext, sayStop: () => void = () => ctx.note('stopped at once: a second signal')): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals): void => {
      for (const name of SIGNALS) process.off(name, first)
      const again = (): void => {
        sayStop()
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
  const metricsToken = readMetricsToken(settings.metricsTokenFile)
  const store = await openStore({ store: settings.store, org: settings.org, namespace: settings.namespace, writeQueue: settings.writeQueue })
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
      // Goldens: the directory store's own trace directory; with PostgreSQL, the checkout's (--dir).
      teamViewer: { goldenDir: store.kind === 'directory' ? settings.store : ctx.dir },
      logFormat: settings.logFormat,
      logLevel: settings.logLevel,
      graceMs: settings.drainMs,
      metricsToken,
      retention: settings.retention,
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
  const { log } = server
  const stopped = nextSignal(ctx, () => log.event('warn', 'stopped_at_once', 'stopped at once: a second signal'))
  log.event('info', 'store_connected', `the ${store.kind} store at ${store.location} is open`, { store: store.kind, location: store.location })
  log.event('info', 'start', `serving the run ledger on ${server.url}/v1 · store: ${store.kind} ${store.location} · ${access}`, {
    url: server.url,
    store: store.kind,
    location: store.location,
    tokens: tokens?.size ?? null,
    metrics: metricsToken === undefined ? (tokens === undefined ? 'open' : 'closed') : 'token',
    retention: settings.retention?.olderThan ?? null,
  })
  if (ctx.json)
    ctx.printJson({
      url: `${server.url}/v1`,
      mcp: `${server.url}/mcp`,
      viewer: viewerUrl,
      team_viewer: `${server.url}/ledger/`,
      store: { kind: store.kind, location: store.location },
      tokens: tokens?.size ?? null,
    })
  else {
    const viewing = `${viewerUrl === null ? '' : ` · the trace viewer on ${viewerUrl}`} · the team viewer on ${server.url}/ledger/`
    ctx.print(
      `reagent-flow serve: the run ledger on ${server.url}/v1 and MCP on ${server.url}/mcp${viewing} · store: ${store.kind} ${store.location} · ${access}`,
    )
  }
  const signal = await stopped
  log.event('info', 'shutdown', `${signal}: stopping after the requests in flight (at most ${settings.drainMs / 1000} s)`, { signal })
  await server.close()
  log.event('info', 'stopped', `stopped; the ${store.kind} store is closed`, { store: store.kind })
  return EXIT_OK
}
