/**
 * What `view` runs once its packages are there (this module loads the
 * server framework): the index of the trace directory, the one HTTP server
 * with the viewer's route group, the start line, and a clean stop on SIGINT
 * or SIGTERM.
 */
import { singleUser } from '../ledger/identity.js'
import { readTokenFile } from '../ledger/tokens.js'
import { startHttpServer } from '../server/http-server.js'
import { plural } from '../report/format-value.js'
import type { ModelCost } from '../trace/cost.js'
import { TraceIndex } from '../viewer/trace-index.js'
import type { ComparisonPayload } from '../viewer/types.js'
import { viewerRoutes } from '../viewer/viewer-routes.js'
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
}

export async function serveViewer(settings: ViewSettings, ctx: CommandContext): Promise<number> {
  const tokens = settings.tokenFile === undefined ? undefined : readTokenFile(settings.tokenFile)
  const owner = singleUser(settings.org, settings.namespace)
  const index = new TraceIndex({ dir: settings.dir, prices: settings.prices, watch: true })
  let server
  try {
    server = await startHttpServer({
      host: settings.host,
      port: settings.port,
      tokens,
      owner,
      groups: [viewerRoutes({ index, owner, comparison: settings.comparison })],
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
  if (ctx.json) ctx.printJson({ url, dir: settings.dir, runs: runs.length - goldens, goldens, tokens: tokens?.size ?? null, comparison })
  else {
    const access = tokens === undefined ? 'loopback only' : `${tokens.size} token(s) from ${settings.tokenFile}`
    const compared = comparison === null ? '' : ` · the comparison with the baseline on ${comparison}`
    ctx.print(
      `reagent-flow view: the trace viewer on ${url} · ${settings.dir}: ${plural(runs.length - goldens, 'run')}, ${plural(goldens, 'golden')} · ${access}${compared}`,
    )
  }
  if (settings.open) openBrowser(url, (reason) => ctx.note(reason))
  const signal = await stopped
  ctx.note(`${signal}: stopping after the requests in flight`)
  await server.close()
  ctx.note('stopped')
  return EXIT_OK
}
