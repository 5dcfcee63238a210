import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * `reagent-flow scaffold` was given a run whose model answers cannot be
 * scripted: a turn that recorded neither response text nor tool calls (an
 * imported span without its content, a call that failed), so a scripted
 * model would not know what to answer.
 */
export class UnscriptableRunError extends ReagentError {
  override name = 'UnscriptableRunError' as const
  /** The run's name. */
  readonly runName: string
  /** The turn that lacks an answer, from 1. */
  readonly turn: number

  constructor(runName: string, turn: number, why: string) {
    super(
      `Run "${runName}" cannot become a test: turn ${turn} ${why}, so a scripted model would not know what to answer there. ` +
        'Scaffold a run whose model calls recorded their answers (for OpenTelemetry spans, export them with their content: the GenAI content attributes).',
    )
    this.runName = runName
    this.turn = turn
  }
}

/**
 * True for an `UnscriptableRunError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isUnscriptableRunError(value: unknown): value is UnscriptableRunError {
  return isReagentErrorNamed(value, 'UnscriptableRunError')
}
