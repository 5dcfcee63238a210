/**
 * The error type Anthropic sends for each status (docs.claude.com/en/api/errors),
 * in its error body `{ type: "error", error: { type, message } }`.
 */
export function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  }
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}
