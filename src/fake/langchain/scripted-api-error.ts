/**
 * What a LangChain chat model throws for an error step: the HTTP error a
 * provider's client would raise, with `status`, `headers` and the parsed
 * `error` body where LangChain's retry logic (its AsyncCaller) reads them,
 * so it retries a 429 or a 5xx and gives up on a 400 as it does for
 * ChatOpenAI. It stands for the provider's error, so it is not a
 * ReagentError: code that handles provider errors sees one.
 */
import { RETRY_HEADERS } from '../retry-headers.js'
import type { ErrorStep } from '../types.js'

export class ScriptedApiError extends Error {
  override name = 'ScriptedApiError' as const
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly error: { type: string | undefined; code: string | undefined; message: string }

  constructor({ status, message, type, code }: ErrorStep['error']) {
    super(`${status} ${message}`)
    this.status = status
    this.headers = { ...RETRY_HEADERS }
    this.error = { type, code, message }
  }
}
