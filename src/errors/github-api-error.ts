import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * GitHub's REST API did not do what `reagent-flow ci comment` asked (list,
 * create or update a pull-request comment), or could not be reached. The
 * message names the request, the status and what to do; the CLI prints it
 * on one line and exits with code 2.
 */
export class GitHubApiError extends ReagentError {
  override name = 'GitHubApiError' as const
  /** The request, `GET /repos/acme/agents/issues/7/comments`. */
  readonly request: string
  /** The HTTP status, or null when no response came (connection refused, DNS). */
  readonly status: number | null

  constructor(request: string, status: number | null, problem: string, fix: string, options?: ErrorOptions) {
    super(`GitHub ${problem} (${request}). ${fix}.`, options)
    this.request = request
    this.status = status
  }
}

/**
 * True for a `GitHubApiError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isGitHubApiError(value: unknown): value is GitHubApiError {
  return isReagentErrorNamed(value, 'GitHubApiError')
}
