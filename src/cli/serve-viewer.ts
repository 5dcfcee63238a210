/**
 * What `view` runs once its packages are there (this module loads the
 * server framework): the index of the trace directory, the one HTTP server
 * with the viewer's route group (and with --ledger the team viewer of that
 * ledger at /ledger/), the start line, and a clean stop on SIGINT or SIGTERM.
 */
import { singleUser } from '../ledger/identity.js'
import { readTokenFile } from '../ledger/tokens.js'
import { startHttpServer } from '../server/http-server.js'
import { plural } from '../report/format-value.js'
import type { ModelCost } from '../trace/cost.js'
import { TraceIndex } from '../viewer/trace-index.js'
import type { ComparisonPayload } from '../viewer/types.js'
import { viewerRoutes } from '../viewer/viewer-routes.js'
import { createLedgerClient } from '../ledger/client.js'
import { LEDGER_VIEWER_PATH, ledgerViewerRoutes } from '../viewer/ledger-routes.js'
import { ledgerRelay } from '../viewer/ledger-relay.js'
import { EXIT_OK, type CommandContext } from './command.js'
import { openBrowser } from './open-browser.js'
import { nextSignal } from './serve-ledger.js'

export interface ViewSettings {
  dir: string
  host: string
  port: number
  open: boolean
  tokenFile: string | undefined
  org: string
  namespace: string
  prices: ReadonlyMap<string, ModelCost>
  /** `--results` with `--baseline`: the Comparison page's payload, built at each request. */
  comparison: (() => ComparisonPayload) | undefined
  /** `--ledger <url>`: the team viewer of that ledger at /ledger/, read with this token; goldens from `dir`. */
  ledger?: { url: string; token: string | undefined } | undefined
}

export async function serveViewer(settings: ViewSettings, ctx: CommandContext): Promise<number> {
  const tokens = settings.tokenFile === undefined ? undefined : readTokenFile(settings.tokenFile)
  const owner = singleUser(settings.org, settings.namespace)
  const index = new TraceIndex({ dir: settings.dir, prices: settings.prices, watch: true })
  const ledger = settings.ledger
  const teamViewer =
    ledger === undefined
      ? []
      : [
          ledgerViewerRoutes({
            service: ledgerRelay(createLedgerClient(ledger.url, { token: ledger.token })),
            prices: settings.prices,
            goldenDir: settings.dir,
          }),
        ]
  let server
  try {
    server = await startHttpServer({
      host: settings.host,
      port: settings.port,
      tokens,
      owner,
      groups: [viewerRoutes({ index, owner, comparison: settings.comparison }), ...teamViewer],
    })
  } catch (error) {
    index.close()
    throw error
  }
  // Listening for the signals before saying where it listens: a caller may stop it the moment it reads that.
  const stopped = nextSignal(ctx)
  const url = `${server.url}/`
  const { runs } = index.payload()
  const goldens = runs.filter((run) => run.kind === 'golden').length
  const comparison = settings.comparison === undefined ? null : `${url}#/compare`
  const teamUrl = ledger === undefined ? null : `${server.url}${LEDGER_VIEWER_PATH}/`
  if (ctx.json)
    ctx.printJson({
      url,
      dir: settings.dir,
      runs: runs.length - goldens,
      goldens,
      tokens: tokens?.size ?? null,
      comparison,
      ...(ledger === undefined ? {} : { ledger: { url: ledger.url, viewer: teamUrl } }),
    })
  else {
    const access = tokens === undefined ? 'loopback only' : `${tokens.size} token(s) from ${settings.tokenFile}`
    const compared = comparison === null ? '' : ` · the comparison with the baseline on ${comparison}`
    const team = ledger === undefined ? '' : ` · the ledger at ${ledger.url} on ${teamUrl}`
    ctx.print(
      `reagent-flow view: the trace viewer on ${url} · ${settings.dir}: ${plural(runs.length - goldens, 'run')}, ${plural(goldens, 'golden')} · ${access}${compared}${team}`,
    )
  }
  if (settings.open) openBrowser(teamUrl ?? url, (reason) => ctx.note(reason))
  const signal = await stopped
  ctx.note(`${signal}: stopping after the requests in flight`)
  await server.close()
  ctx.note('stopped')
  return EXIT_OK
}
