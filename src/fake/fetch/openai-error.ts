/**
 * OpenAI's error body, `{ error: { message, type, param, code } }`, with the
 * type and code OpenAI sends for the status, so the SDK builds the same error
 * (`RateLimitError`, `InternalServerError`, ...) with the same fields.
 */
import type { ErrorStep } from '../types.js'

export function openaiErrorBody(error: ErrorStep['error']): unknown {
  const [type, code] = defaultsFor(error.status)
  return { error: { message: error.message, type: error.type ?? type, param: null, code: error.code ?? code } }
}

function defaultsFor(status: number): [type: string, code: string | null] {
  if (status === 429) return ['requests', 'rate_limit_exceeded']
  if (status === 401) return ['invalid_request_error', 'invalid_api_key']
  if (status >= 500) return ['server_error', null]
  return ['invalid_request_error', null]
}
