/**
 * What an injected model fault looks like from the provider: the message,
 * the error body (OpenAI's `{ error: { message, type, param, code } }`,
 * Anthropic's `{ type: "error", error: { type, message } }`) and the headers
 * of the error response, which every layer that delivers the fault builds
 * its error from (an HTTP response for the Stainless clients, the AI SDK's
 * `APICallError`, a `ModelFaultError`). The headers announce a retry after
 * a millisecond, so the SDKs that read them retry at once.
 */
import { ModelFaultError } from '../errors/index.js'
import { anthropicErrorType } from '../fake/fetch/anthropic-error.js'
import { openaiErrorBody } from '../fake/fetch/openai-error.js'
import { RETRY_HEADERS } from '../fake/retry-headers.js'
import type { ModelFault, ModelFaultStatus } from './faults-option.js'

const WHAT: Readonly<Record<ModelFaultStatus, string>> = {
  429: 'Rate limit reached',
  500: 'The server had an error while processing your request',
  503: 'The service is temporarily unavailable',
  529: 'Overloaded',
  timeout: 'Request timed out',
}

/** A fault of a call to `model`, as the provider would describe it. */
export interface DescribedFault {
  /** The HTTP status; undefined for a timeout, which has no response. */
  status: number | undefined
  /** The provider's message: `Rate limit reached for gpt-4o: an injected fault (the session's faults option).` */
  message: string
  /** The headers of the error response. */
  headers: Readonly<Record<string, string>>
  /** The error body `provider` sends (Anthropic's for "anthropic", OpenAI's for any other); null for a timeout. */
  body: unknown
  /** OpenAI's error object (inside its body), the shape most clients keep as `error`. */
  error: { message: string; type: string; code: string | null }
}

export function describeModelFault(fault: ModelFault, model: string | null, provider: string | null): DescribedFault {
  const message = `${WHAT[fault.status]}${model === null ? '' : ` for ${model}`}: an injected fault (the session's faults option).`
  if (fault.status === 'timeout') {
    // A timeout has no response, so no body: what there is to say is said as OpenAI's error object.
    return { status: undefined, message, headers: RETRY_HEADERS, body: null, error: { message, type: 'timeout', code: null } }
  }
  const { status } = fault
  const openai = openaiErrorBody({ status, message }) as { error: { message: string; type: string; param: null; code: string | null } }
  const body = provider === 'anthropic' ? { type: 'error', error: { type: anthropicErrorType(status), message } } : openai
  return { status, message, headers: RETRY_HEADERS, body, error: { message, type: openai.error.type, code: openai.error.code } }
}

/** The `ModelFaultError` a fault of a call to `model` fails with. */
export function modelFaultError(fault: ModelFault, model: string | null, provider: string | null): ModelFaultError {
  const { message, headers, error } = describeModelFault(fault, model, provider)
  return new ModelFaultError({ fault: fault.status, model, message, headers: { ...headers }, error })
}
