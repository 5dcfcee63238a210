/**
 * The ledger's operations over HTTP: `POST /v1/<operation>` with the
 * operation's fields as a JSON object, answered with its output fields
 * (200) or an error body (see errors.ts). Bodies are limited to 1 MB, and
 * trace.put's and results.put's to 64 MB (inflated, when sent gzip-compressed).
 */
import { Hono } from 'hono'
import { BadEncodingError, BodyTooLargeError, ClientGoneError, InflateBudget, type ReadBody, readBody, ServerBusyError } from '../server/read-body.js'
import type { RouteGroup, ServerEnv } from '../server/route-group.js'
import type { ServerLog } from '../server/server-log.js'
import { LedgerRequestError } from './errors.js'
import { OPERATION_INPUTS, type OperationName } from './input-schemas.js'
import type { LedgerService } from './service.js'

export const RUN_BODY_LIMIT = 1024 * 1024
export const TRACE_BODY_LIMIT = 64 * 1024 * 1024
/** What gzip bodies may inflate to across the requests a server answers at once: four trace.put bodies at their limit. */
export const INFLATE_BUDGET = 4 * TRACE_BODY_LIMIT

const OPERATIONS = Object.keys(OPERATION_INPUTS) as OperationName[]

function isOperation(name: string): name is OperationName {
  return (OPERATIONS as readonly string[]).includes(name)
}

/** Operations that carry a file (a trace, a results file of a large suite): the larger limit, and gzip as a client sends them. */
const LARGE_BODIES: ReadonlySet<OperationName> = new Set(['trace.put', 'results.put'])

/** Seconds a client is asked to wait before calling again when the store cannot be reached. */
export const RETRY_AFTER_SECONDS = 1

/** The body as JSON, and `release()` once the request is answered (see InflateBudget). */
async function parseBody(request: Request, operation: OperationName, budget: InflateBudget): Promise<{ value: unknown; release: () => void }> {
  const limit = LARGE_BODIES.has(operation) ? TRACE_BODY_LIMIT : RUN_BODY_LIMIT
  let body: ReadBody
  try {
    body = await readBody(request, { limit, budget, signal: request.signal })
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new LedgerRequestError(
        'body_too_large',
        `${operation}: ${error.message}, the limit of ${operation} bodies${LARGE_BODIES.has(operation) ? '' : ' (traces go in trace.put)'}`,
      )
    }
    if (error instanceof ServerBusyError)
      throw new LedgerRequestError('unavailable', `${operation}: ${error.message}; try again in a moment`, {}, { cause: error })
    if (error instanceof BadEncodingError || error instanceof ClientGoneError) throw new LedgerRequestError('bad_json', `${operation}: ${error.message}`)
    throw error
  }
  try {
    const value = body.bytes.length === 0 ? {} : (JSON.parse(body.bytes.toString('utf8')) as unknown)
    // The client went while the body inflated or parsed: nobody waits for the work that would follow.
    if (request.signal.aborted) throw new LedgerRequestError('bad_json', `${operation}: ${new ClientGoneError().message}`)
    return { value, release: body.release }
  } catch (error) {
    body.release()
    if (error instanceof LedgerRequestError) throw error
    throw new LedgerRequestError('bad_json', `${operation}: the body is not JSON (${(error as Error).message})`)
  }
}

export function ledgerRoutes(service: LedgerService, log: ServerLog): RouteGroup {
  const app = new Hono<ServerEnv>()
  const budget = new InflateBudget(INFLATE_BUDGET)
  app.all('/:operation', async (c) => {
    const name = c.req.param('operation')
    try {
      if (!isOperation(name)) {
        throw new LedgerRequestError('unknown_operation', `no operation "${name}"; the operations are ${OPERATIONS.join(', ')}`)
      }
      if (c.req.method !== 'POST') {
        throw new LedgerRequestError('method_not_allowed', `${name} is called with POST /v1/${name} and a JSON body, not ${c.req.method}`)
      }
      const body = await parseBody(c.req.raw, name, budget)
      try {
        return c.json(await service.call(name, c.get('caller'), body.value, c.req.header('idempotency-key')))
      } finally {
        body.release()
      }
    } catch (error) {
      if (!(error instanceof LedgerRequestError)) throw error
      if (error.code === 'method_not_allowed') c.header('allow', 'POST')
      if (error.code === 'unavailable') {
        c.header('retry-after', String(RETRY_AFTER_SECONDS))
        log.event('warn', 'unavailable', `${name}: ${error.cause instanceof Error ? error.cause.message : error.message}`, { operation: name })
      }
      return c.json(error.body, error.status as 400)
    }
  })
  return {
    path: '/v1',
    app,
    // A name a client made up is not a label of the metrics: it would make one series per name.
    operation: (subpath) => (isOperation(subpath) ? subpath : 'unknown'),
    close: () => service.store.close(),
  }
}
