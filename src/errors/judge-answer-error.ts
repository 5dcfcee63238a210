import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/**
 * A judge's model did not give a verdict: it never called the `grade` tool,
 * or called it with arguments that are not `{ score: 0..1, pass, reason }`,
 * twice (it is asked once more after the first). The judge's run is failed
 * and no grade is written.
 */
export class JudgeAnswerError extends ReagentError {
  override name = 'JudgeAnswerError' as const
  /** The judged run's name. */
  readonly runName: string
  /** What was wrong with the last answer, in words. */
  readonly problem: string

  constructor(runName: string, problem: string) {
    super(
      `The judge of "${runName}" gave no verdict: ${problem}. ` +
        `Use a model that supports tool calls, or pass a function as the judge's model for a rule-based verdict.`,
    )
    this.runName = runName
    this.problem = problem
  }
}

/**
 * True for a `JudgeAnswerError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isJudgeAnswerError(value: unknown): value is JudgeAnswerError {
  return isReagentErrorNamed(value, 'JudgeAnswerError')
}
