/**
 * The viewer as a route group of the one HTTP server (src/server): the page
 * at `/`, its bundle under `/assets/`, a read-only JSON API under `/api/`,
 * and server-sent events (`/api/events`) that carry each change the index
 * sees in the trace directory. Every request has passed the server's access
 * rules; with a token file, only tokens of the server's own org and
 * namespace, narrowed to no agent or session, may look at the directory.
 */
import { Hono, type Context } from 'hono'
import type { Caller } from '../server/caller.js'
import { isReagentError } from '../errors/index.js'
import { errorResponse, type RouteGroup, type ServerEnv } from '../server/route-group.js'
import { viewerAssets } from './assets.js'
import { ViewerRequestError } from './errors.js'
import { VIEWER_HEADERS, viewerPage } from './page-html.js'
import { diffPayload, runPayload } from './payloads.js'
import type { TraceIndex } from './trace-index.js'
import type { ComparisonPayload } from './types.js'

export interface ViewerRoutesOptions {
  index: TraceIndex
  /** The server's own caller: with tokens, a token must be of its org and namespace. */
  owner: Caller
  /** Close the index with the server. Default: true. */
  closeIndex?: boolean
  /** How often an open event stream sends a comment, so proxies and browsers keep it. Default: 15 s. */
  heartbeatMs?: number
  /** The comparison with a baseline (`view --results --baseline`), built at each request so new results count; none without. */
  comparison?: (() => ComparisonPayload) | undefined
}

function mayView(caller: Caller, owner: Caller): boolean {
  if (!caller.bound) return true
  return caller.org === owner.org && caller.namespace === owner.namespace && caller.agent === undefined && caller.session_id === undefined
}

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(VIEWER_HEADERS)) response.headers.set(name, value)
  return response
}

function json(value: unknown, status = 200): Response {
  return withHeaders(
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } }),
  )
}

function refused(error: unknown): Response {
  if (error instanceof ViewerRequestError) return withHeaders(errorResponse(error.status, error.code, error.message))
  throw error
}

const query = (c: Context<ServerEnv>, name: string): string | undefined => c.req.query(name)

export function viewerRoutes({ index, owner, closeIndex = true, heartbeatMs = 15_000, comparison }: ViewerRoutesOptions): RouteGroup {
  const app = new Hono<ServerEnv>()
  const streams = new Set<() => void>()
  const encoder = new TextEncoder()

  // Checked in each route, not as middleware: mounted at `/`, a middleware would also stand before the ledger's routes beside it.
  const viewer =
    (handler: (c: Context<ServerEnv>) => Response) =>
    (c: Context<ServerEnv>): Response => {
      const caller = c.get('caller')
      if (mayView(caller, owner)) return handler(c)
      return withHeaders(
        errorResponse(
          403,
          'forbidden',
          `${caller.label} may not view the trace directory: the viewer shows the runs of org ${JSON.stringify(owner.org)}, namespace ${JSON.stringify(owner.namespace)} to tokens of that namespace that are narrowed to no agent or session`,
        ),
      )
    }
  app.get(
    '/',
    viewer(() =>
      withHeaders(
        new Response(viewerPage(`reagent-flow · ${index.dir}`, { comparison: comparison !== undefined }), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        }),
      ),
    ),
  )
  app.get(
    '/assets/viewer.js',
    viewer(() =>
      withHeaders(new Response(viewerAssets().script, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } })),
    ),
  )
  app.get(
    '/assets/viewer.css',
    viewer(() => withHeaders(new Response(viewerAssets().styles, { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' } }))),
  )
  app.get(
    '/api/runs',
    viewer(() => json(index.payload())),
  )
  app.get(
    '/api/run',
    viewer((c) => {
      try {
        return json(runPayload(index, query(c, 'id')))
      } catch (error) {
        return refused(error)
      }
    }),
  )
  app.get(
    '/api/diff',
    viewer((c) => {
      try {
        const request = {
          actual: query(c, 'actual') ?? '',
          expected: query(c, 'expected'),
          mode: query(c, 'mode'),
          args: query(c, 'args'),
          ignore: query(c, 'ignore'),
        }
        return json(diffPayload(index, request))
      } catch (error) {
        return refused(error)
      }
    }),
  )
  app.get(
    '/api/comparison',
    viewer(() => {
      if (comparison === undefined) {
        return refused(
          new ViewerRequestError('not_found', 'this viewer compares nothing: start it with --results <current results> --baseline <baseline results>'),
        )
      }
      try {
        return json(comparison())
      } catch (error) {
        // Results that became unreadable since the start (a file cut short while written): say which, as the CLI would.
        if (isReagentError(error)) return refused(new ViewerRequestError('unreadable', error.message))
        throw error
      }
    }),
  )
  app.get(
    '/api/events',
    viewer(() => {
      let stop = (): void => {}
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const send = (text: string): void => {
            try {
              controller.enqueue(encoder.encode(text))
            } catch {
              stop()
            }
          }
          send(`event: hello\ndata: ${JSON.stringify({ version: index.version })}\n\n`)
          const unsubscribe = index.subscribe((delta) => send(`event: change\ndata: ${JSON.stringify(delta)}\n\n`))
          const heartbeat = setInterval(() => send(': still here\n\n'), heartbeatMs)
          heartbeat.unref()
          stop = () => {
            unsubscribe()
            clearInterval(heartbeat)
            streams.delete(stop)
            try {
              controller.close()
            } catch {
              // Already closed by the client.
            }
          }
          streams.add(stop)
        },
        cancel() {
          stop()
        },
      })
      return withHeaders(new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' } }))
    }),
  )

  return {
    path: '/',
    app,
    // One name for the page, its API and its live updates: their paths hold run names and ids.
    operation: () => 'viewer',
    async close() {
      for (const stop of [...streams]) stop()
      if (closeIndex) index.close()
    },
  }
}
