import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** The limits a session can be given (the `limits` option), by name. */
export type LimitName = 'turns' | 'tokens' | 'usd' | 'seconds'

/** What a run that went past a limit was about to do when it was stopped. */
export type StoppedCall = { kind: 'model' } | { kind: 'logged-model' } | { kind: 'tool'; tool: string }

/**
 * A run went past one of its limits (the `limits` session option): the
 * next model or tool call throws this instead of being made, and the run is
 * recorded as `cancelled` with `reason` as its `interruption_reason`. Its
 * words are written by the limits (src/limits/limit-wording.ts), which know
 * how each limit is counted.
 */
export class BudgetExceededError extends ReagentError {
  override name = 'BudgetExceededError' as const
  readonly sessionName: string
  /** The limit that was passed. */
  readonly limit: LimitName
  /** Its value, as the option gave it. */
  readonly max: number
  /** The figure that went past it: model calls, tokens, USD, seconds. */
  readonly actual: number
  /** The call that was stopped. */
  readonly stopped: StoppedCall
  /** The same in a few words, for the trace's `interruption_reason`: `limits.tokens of 1000 tokens passed (1200 tokens used)`. */
  readonly reason: string

  constructor(message: string, fields: { sessionName: string; limit: LimitName; max: number; actual: number; stopped: StoppedCall; reason: string }) {
    super(message)
    this.sessionName = fields.sessionName
    this.limit = fields.limit
    this.max = fields.max
    this.actual = fields.actual
    this.stopped = fields.stopped
    this.reason = fields.reason
  }
}

/**
 * True for a `BudgetExceededError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isBudgetExceededError(value: unknown): value is BudgetExceededError {
  return isReagentErrorNamed(value, 'BudgetExceededError')
}

/**
 * Whether a run was stopped by a limit, its own or a sub-agent's: a
 * `BudgetExceededError` with the reason its session is closed as cancelled
 * with. Never throws: the value may be anything an agent threw (a revoked
 * Proxy refuses every look).
 */
export function isBudgetStop(error: unknown): error is BudgetExceededError {
  try {
    return isBudgetExceededError(error) && typeof (error as { reason?: unknown }).reason === 'string'
  } catch {
    return false
  }
}
