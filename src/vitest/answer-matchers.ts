/**
 * Matchers about what the agent achieved: toHaveFinalAnswer (the last text
 * the model gave) and toReachGoal (a judge's verdict on the goal, recorded
 * as the run's grade; see run/goal.ts).
 */
import type { MatcherState } from 'vitest'
import { isAsymmetricMatcher, type AsymmetricMatcher } from '../assert/equality.js'
import { whatWasCalled } from '../assert/facts.js'
import { judgeGoal, judgeRunFact, notReachedHeadline, quoteGoal, type GoalOptions } from '../run/goal.js'
import { describeReceived } from '../assert/received.js'
import { render } from '../assert/render.js'
import { cut } from '../report/format-value.js'
import { finalResponse } from '../trace/facts.js'
import { describeFailure, receivedTrace, type MatcherOutcome } from './outcome.js'

/** What `toHaveFinalAnswer` compares the final answer with. */
export type AnswerExpectation = string | RegExp | AsymmetricMatcher

function checkExpected(expected: unknown): AnswerExpectation {
  if (typeof expected === 'string' || expected instanceof RegExp || isAsymmetricMatcher(expected)) return expected
  throw new TypeError(
    `toHaveFinalAnswer(): expected must be a string, a RegExp or an asymmetric matcher (expect.stringContaining('refund')), got ${describeReceived(expected)}.`,
  )
}

/** `be "Refunded."`, `match /refund/i`, `match StringContaining "refund"`. */
function describeExpected(expected: AnswerExpectation): string {
  if (typeof expected === 'string') return `be ${JSON.stringify(cut(expected, 200))}`
  return `match ${expected instanceof RegExp ? String(expected) : render(expected)}`
}

export function toHaveFinalAnswer(this: MatcherState, received: unknown, expected: AnswerExpectation): MatcherOutcome {
  const trace = receivedTrace('toHaveFinalAnswer', received)
  const wanted = checkExpected(expected)
  const answer = finalResponse(trace)
  const pass =
    answer !== null &&
    // search() ignores a /g or /y regex's lastIndex, so a shared regex gives the same answer every time.
    (typeof wanted === 'string' ? answer === wanted : wanted instanceof RegExp ? answer.search(wanted) !== -1 : this.equals(answer, wanted, this.customTesters))
  const shown = answer === null ? 'the agent gave no text answer' : `it was ${JSON.stringify(cut(answer, 200))}`
  const headline = `expected the final answer ${pass ? 'not ' : ''}to ${describeExpected(wanted)}, but ${shown}`
  // A diff of the two texts where there are two texts; a RegExp has none to draw.
  const diff = wanted instanceof RegExp || answer === null ? {} : { actual: answer, expected: wanted }
  return { pass, message: () => describeFailure(trace, headline, { causes: [whatWasCalled(trace)] }), ...diff }
}

export async function toReachGoal(this: MatcherState, received: unknown, judge: unknown, options: GoalOptions = {}): Promise<MatcherOutcome> {
  // Checked here first, so a wrong value is named as what was given to expect().
  receivedTrace('toReachGoal', received)
  const judgement = await judgeGoal('toReachGoal', received, judge, options)
  const causes = [judgeRunFact(judgement)]
  if (!judgement.reached) return { pass: false, message: () => describeFailure(judgement.trace, notReachedHeadline(judgement), { causes }) }
  const why = judgement.reason === null ? '' : `: ${judgement.reason}`
  return {
    pass: true,
    message: () =>
      describeFailure(judgement.trace, `expected the agent not to reach its goal ${quoteGoal(judgement.goal)}, but the judge said it did${why}`, { causes }),
  }
}
