/**
 * The team viewer: a route group of `reagent-flow serve` at `/ledger/`, over
 * the ledger it serves. The page and its bundle, and a read-only JSON API
 * under `/ledger/api/` that answers GETs (a browser's cookie is taken on
 * GETs only, see server/access.ts) by calling the ledger's own read
 * operations as the request's caller: run.list, run.get with trace.get,
 * run.stats. So a token sees here exactly the runs the API shows it, in
 * its org and namespace (and agent or session, when narrowed), and a
 * refusal is the operation's own (status, field, message).
 */
import { Hono, type Context } from 'hono'
import { isLedgerError, LedgerRequestError } from '../ledger/errors.js'
import type { OperationName } from '../ledger/input-schemas.js'
import type { RunGetResult, RunStatsResult, TraceGetResult } from '../ledger/output-schemas.js'
import type { Caller } from '../server/caller.js'
import { errorResponse, type RouteGroup, type ServerEnv } from '../server/route-group.js'
import type { ModelCost } from '../trace/cost.js'
import { viewerAssets } from './assets.js'
import { ViewerRequestError } from './errors.js'
import { ledgerDiffPayload, ledgerRunPayload, type LedgerReads } from './ledger-payloads.js'
import type { LedgerRunsPayload } from './ledger-types.js'
import { VIEWER_HEADERS, viewerPage } from './page-html.js'
import { trendsPayload } from './trends-payload.js'

/** The one method of the ledger's service the viewer uses (service.ts): an operation, as a caller, on a body. */
export interface LedgerCaller {
  call(operation: OperationName, caller: Caller, body: unknown): Promise<object>
}

export interface LedgerViewerOptions {
  service: LedgerCaller
  prices: ReadonlyMap<string, ModelCost>
  /** Where the runs' goldens are filed (see ledger-payloads.ts); undefined: runs have no golden. */
  goldenDir: string | undefined
}

export const LEDGER_VIEWER_PATH = '/ledger'

/** run.list's fields a query string carries; the numbers are sent as numbers when they read as one, so a bad one is the operation's 422 naming it. */
const LIST_TEXT = ['agent', 'session_id', 'status', 'q', 'memory_activity', 'grade', 'order_by', 'cursor'] as const
const LIST_NUMBERS = ['limit', 'offset'] as const

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(VIEWER_HEADERS)) response.headers.set(name, value)
  return response
}

function json(value: unknown): Response {
  return withHeaders(new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } }))
}

function refused(error: unknown): Response {
  if (error instanceof ViewerRequestError) return withHeaders(errorResponse(error.status, error.code, error.message))
  // A ledger elsewhere (view --ledger) refused or could not be reached: its answer, or a 502 saying which.
  if (isLedgerError(error)) {
    const body = error.body ?? { error: 'bad_gateway', message: error.message }
    return withHeaders(errorResponse(error.status ?? 502, body.error, body.message, body))
  }
  if (error instanceof LedgerRequestError) {
    const response = withHeaders(errorResponse(error.status, error.code, error.message, error.body))
    if (error.code === 'unavailable') response.headers.set('retry-after', '1')
    return response
  }
  throw error
}

function listBody(c: Context<ServerEnv>): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const name of LIST_TEXT) {
    const value = c.req.query(name)
    if (value !== undefined && value !== '') body[name] = value
  }
  for (const name of LIST_NUMBERS) {
    const value = c.req.query(name)
    if (value !== undefined && value !== '') body[name] = /^\d{1,9}$/.test(value) ? Number(value) : value
  }
  return body
}

export function ledgerViewerRoutes({ service, prices, goldenDir }: LedgerViewerOptions): RouteGroup {
  const app = new Hono<ServerEnv>()
  const call = <T>(c: Context<ServerEnv>, operation: OperationName, body: object): Promise<T> => service.call(operation, c.get('caller'), body) as Promise<T>
  const readsOf = (c: Context<ServerEnv>): LedgerReads => ({
    get: (runId) => call<RunGetResult>(c, 'run.get', { run_id: runId }),
    trace: async (runId) => (await call<TraceGetResult>(c, 'trace.get', { run_id: runId })).trace,
  })
  const api =
    (handler: (c: Context<ServerEnv>) => Promise<unknown>) =>
    async (c: Context<ServerEnv>): Promise<Response> => {
      try {
        return json(await handler(c))
      } catch (error) {
        return refused(error)
      }
    }

  app.get('/assets/ledger.js', () =>
    withHeaders(new Response(viewerAssets('ledger').script, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } })),
  )
  app.get('/assets/ledger.css', () =>
    withHeaders(new Response(viewerAssets('ledger').styles, { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' } })),
  )
  app.get(
    '/api/runs',
    api((c) => call<LedgerRunsPayload>(c, 'run.list', listBody(c))),
  )
  app.get(
    '/api/run',
    api((c) => ledgerRunPayload(c.req.query('id'), readsOf(c), { prices, goldenDir })),
  )
  app.get(
    '/api/diff',
    api((c) => {
      const request = {
        actual: c.req.query('actual') ?? '',
        expected: c.req.query('expected'),
        mode: c.req.query('mode'),
        args: c.req.query('args'),
        ignore: c.req.query('ignore'),
      }
      return ledgerDiffPayload(request, readsOf(c), goldenDir)
    }),
  )
  app.get(
    '/api/trends',
    api((c) => {
      const bucket = c.req.query('bucket') ?? 'day'
      const since = c.req.query('since') ?? '30d'
      // run.stats checks both (a 422 naming the field): passed on as given.
      return trendsPayload({ bucket: bucket as 'day', since }, (input) => call<RunStatsResult>(c, 'run.stats', input))
    }),
  )

  // Last, so it answers only what no route above does: the page at `/ledger/`, `/ledger` sent there, anything else a 404.
  app.get('/*', (c) => {
    // Relative addresses (./assets/, ./api/) need the page at the folder's address.
    if (c.req.path === LEDGER_VIEWER_PATH) return withHeaders(new Response(null, { status: 308, headers: { location: `${LEDGER_VIEWER_PATH}/` } }))
    if (c.req.path !== `${LEDGER_VIEWER_PATH}/`) {
      return withHeaders(errorResponse(404, 'not_found', `no page ${c.req.path} in the team viewer; it is at ${LEDGER_VIEWER_PATH}/`))
    }
    // Whose runs these are, as the caller's project: never where the store is (a database's host is not every reader's to know).
    const { org, namespace } = c.get('caller')
    const ledger = `${org}/${namespace}`
    return withHeaders(
      new Response(viewerPage(`reagent-flow · ${ledger}`, { bundle: 'ledger', ledger }), {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      }),
    )
  })

  return {
    path: LEDGER_VIEWER_PATH,
    app,
    operation: () => 'ledger-viewer',
  }
}
