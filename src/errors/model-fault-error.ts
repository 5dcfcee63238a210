import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * The error an injected model fault (`{ llm: true, status }` in the `faults`
 * session option) fails a model call with where the SDK meets the model at
 * its own layer (LangChain chat models, the Agents SDK's models): the
 * provider's error as a client raises it, with `status`, `headers` (a retry
 * delay of a millisecond) and the provider's `error` body where the SDKs'
 * retry rules read them. The Stainless clients and the AI SDK raise their
 * own error classes instead (README, "Faults and limits").
 */
export class ModelFaultError extends ReagentError {
  override name = 'ModelFaultError' as const
  readonly injected = true as const
  /** The HTTP status the provider would have answered with; undefined for a timeout. */
  readonly status: number | undefined
  readonly headers: Readonly<Record<string, string>>
  /** The provider's error, as OpenAI's error body holds it. */
  readonly error: { message: string; type: string; code: string | null }
  /** The provider's error code (`rate_limit_exceeded`), where LangChain looks for it. */
  readonly code: string | undefined
  /** The model the failed call asked for; null when it named none. */
  readonly model: string | null
  /** `'timeout'` or the status, as the fault gave it. */
  readonly fault: number | 'timeout'

  constructor(init: {
    fault: number | 'timeout'
    model: string | null
    message: string
    headers: Readonly<Record<string, string>>
    error: { message: string; type: string; code: string | null }
  }) {
    super(typeof init.fault === 'number' ? `${init.fault} ${init.message}` : init.message)
    this.fault = init.fault
    this.status = typeof init.fault === 'number' ? init.fault : undefined
    this.headers = init.headers
    this.error = init.error
    this.code = init.error.code ?? undefined
    this.model = init.model
  }
}

/**
 * True for a `ModelFaultError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isModelFaultError(value: unknown): value is ModelFaultError {
  return isReagentErrorNamed(value, 'ModelFaultError')
}
