/** A request the viewer's server refuses: its status and a message that says what to do (the body is `{ error, message }`, as every route group of the server answers). */
import { ReagentError } from '../errors/index.js'

export type ViewerErrorCode =
  | 'bad_request' // 400: a diff option the diff does not take, a missing parameter
  | 'not_found' // 404: no such file in the trace directory, or no golden for the run
  | 'unreadable' // 422: the file is listed but is not a readable trace (any more)

const STATUS: Record<ViewerErrorCode, 400 | 404 | 422> = { bad_request: 400, not_found: 404, unreadable: 422 }

export class ViewerRequestError extends ReagentError {
  override name = 'ViewerRequestError' as const
  readonly code: ViewerErrorCode
  readonly status: 400 | 404 | 422

  constructor(code: ViewerErrorCode, message: string) {
    super(message)
    this.code = code
    this.status = STATUS[code]
  }
}
