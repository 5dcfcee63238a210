/**
 * Sending an export to an OTLP/HTTP receiver (the Collector, Jaeger, Tempo,
 * Phoenix, Langfuse): a POST of the JSON to `<endpoint>/v1/traces`, as the
 * OTLP/HTTP exporters do.
 */
import { OtlpExportError } from '../errors/index.js'
import type { OtlpExportRequest } from './otlp-json.js'

/** `http://host:4318` means its `/v1/traces`; a URL that already names a path is used as it is. */
export function tracesUrl(endpoint: string): string {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new TypeError(`The OTLP endpoint ${JSON.stringify(endpoint)} is not a URL; pass one like http://127.0.0.1:4318.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`The OTLP endpoint ${endpoint} must be http: or https:, got ${url.protocol}`)
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces'
  return url.toString()
}

export interface PostOptions {
  /** Extra request headers (an `Authorization` a backend asks for). */
  headers?: Readonly<Record<string, string>>
  /** Give up after this many milliseconds. Default: 10000. */
  timeoutMs?: number
}

/** POSTs `request` as OTLP/JSON; throws `OtlpExportError` when the receiver does not answer 2xx. */
export async function postOtlp(endpoint: string, request: OtlpExportRequest, options: PostOptions = {}): Promise<void> {
  const url = tracesUrl(endpoint)
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    })
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
    throw new OtlpExportError(url, null, `no answer (${cause})`, { cause: error })
  }
  const body = await response.text().catch(() => '')
  if (!response.ok) throw new OtlpExportError(url, response.status, `the receiver answered ${response.status}${body === '' ? '' : `: ${body.slice(0, 200)}`}`)
}
