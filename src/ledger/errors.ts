/**
 * The run ledger's errors. `LedgerRequestError` is a call the server refuses:
 * its HTTP status and the JSON body every transport answers with (HTTP,
 * MCP). `LedgerError` is what the client throws when a ledger answered with
 * one of those, or could not be reached.
 */
import { ReagentError, isReagentErrorNamed } from '../errors/reagent-error.js'

export type LedgerErrorCode =
  | 'bad_json' // 400: the body is not JSON, or not a JSON object
  | 'unauthorized' // 401: no bearer token, or one the token file does not hold
  | 'forbidden' // 403: the call names an org, namespace, agent or session outside its token's scope, or needs a role its token lacks
  | 'unknown_operation' // 404: no such operation
  | 'run_not_found' // 404: no run with this id in the namespace (or in the token's scope)
  | 'method_not_allowed' // 405: operations are POST
  | 'run_closed' // 409: run.complete of a run that is already closed
  | 'run_conflict' // 409: run.begin re-sent for a run id that belongs to another agent, user or session
  | 'body_too_large' // 413
  | 'invalid_input' // 422: the body breaks the operation's schema
  | 'internal' // 500
  | 'unavailable' // 503: the store cannot be reached

const STATUS: Record<LedgerErrorCode, number> = {
  bad_json: 400,
  unauthorized: 401,
  forbidden: 403,
  unknown_operation: 404,
  run_not_found: 404,
  method_not_allowed: 405,
  run_closed: 409,
  run_conflict: 409,
  body_too_large: 413,
  invalid_input: 422,
  internal: 500,
  unavailable: 503,
}

/** The JSON body of every refused call. */
export interface LedgerErrorBody {
  error: LedgerErrorCode
  message: string
  /** 422: the input field at fault, as a JSON path (`limit`, `metadata`, `fields[2]`). */
  field?: string
  /** 422: the schema rule it breaks (`required`, `type`, `maximum`, ...). */
  rule?: string
}

export class LedgerRequestError extends ReagentError {
  override name = 'LedgerRequestError' as const
  readonly code: LedgerErrorCode
  readonly status: number
  readonly field: string | undefined
  readonly rule: string | undefined

  constructor(code: LedgerErrorCode, message: string, detail: { field?: string; rule?: string } = {}, options?: ErrorOptions) {
    super(message, options)
    this.code = code
    this.status = STATUS[code]
    this.field = detail.field
    this.rule = detail.rule
  }

  get body(): LedgerErrorBody {
    const body: LedgerErrorBody = { error: this.code, message: this.message }
    if (this.field !== undefined) body.field = this.field
    if (this.rule !== undefined) body.rule = this.rule
    return body
  }
}

/**
 * The store could not do its work for a reason outside the call: PostgreSQL
 * restarting, down or out of connections; the disk refusing a write (full,
 * read-only, not permitted). The
 * service answers it as `unavailable` (503 with Retry-After): the same call
 * may succeed once the dependency is back. `cause` is the dependency's error.
 */
export class StoreUnavailableError extends ReagentError {
  override name = 'StoreUnavailableError' as const
  readonly store: string
  /** What failed, in words: `cannot be reached`, `cannot write its files`. */
  readonly problem: string

  constructor(store: string, cause: unknown, problem = 'cannot be reached') {
    super(`the ${store} store ${problem} (${cause instanceof Error ? cause.message : String(cause)})`, { cause })
    this.store = store
    this.problem = problem
  }
}

/**
 * A write found the store's write queue full (write-queue.ts): the store is
 * slower than its clients right now. The service answers `unavailable` (503
 * with Retry-After); nothing was written, and the same call may be sent again.
 */
export class WriteQueueFullError extends ReagentError {
  override name = 'WriteQueueFullError' as const
  readonly capacity: number

  constructor(capacity: number) {
    super(`its write queue is full (it holds ${capacity} writes; serve --write-queue sets how many)`)
    this.capacity = capacity
  }
}

/** A ledger call that failed: the server's answer (`status`, `body`), or `status` null when it could not be reached. */
export class LedgerError extends ReagentError {
  override name = 'LedgerError' as const
  readonly operation: string
  readonly url: string
  readonly status: number | null
  readonly body: LedgerErrorBody | null

  constructor(operation: string, url: string, status: number | null, body: LedgerErrorBody | null, message: string, options?: ErrorOptions) {
    super(message, options)
    this.operation = operation
    this.url = url
    this.status = status
    this.body = body
  }
}

/**
 * True for a `LedgerError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isLedgerError(value: unknown): value is LedgerError {
  return isReagentErrorNamed(value, 'LedgerError')
}
