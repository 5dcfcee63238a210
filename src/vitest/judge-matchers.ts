/**
 * Matchers a judge decides: toNeverMakeUserRepeat (in a conversation, the
 * user never had to give the same information twice). The judge is a
 * `judge({ model })` of `reagent-flow/simulate` or a rule-based function; it
 * works in its own run, `<name> > judge` (run/judge-session.ts), and its
 * verdict is recorded as the run's grade.
 */
import type { MatcherState } from 'vitest'
import { describeReceived } from '../assert/received.js'
import { shownPath } from '../golden/index.js'
import { gradeRun, isJudge, JUDGE_HOOKS, ruleJudgeHooks, type JudgeHooks, type Judgement } from '../run/rubric-judge.js'
import { describeFailure, receivedTrace, type MatcherOutcome } from './outcome.js'

/** The rubric of toNeverMakeUserRepeat, as the judge is given it. */
export const NEVER_REPEAT_RUBRIC =
  'The user never had to repeat information: the agent never asked again for something the user had already given ' +
  '(an order number, a name, a date, an address), and the user never had to restate it because the agent ignored or forgot it.'

/** The judge of a judge-based matcher: a judge({ model }), or a function for a rule-based verdict. */
function hooksOf(matcher: string, judge: unknown): JudgeHooks {
  if (isJudge(judge)) return judge[JUDGE_HOOKS]
  if (typeof judge === 'function') return ruleJudgeHooks(judge as Parameters<typeof ruleJudgeHooks>[0], undefined, undefined)
  const model = judge !== null && typeof judge === 'object' ? " (to ask a model, wrap it: judge({ model }) from 'reagent-flow/simulate')" : ''
  throw new TypeError(
    `${matcher}(): the judge must be a judge({ model }) or a function (input) => ({ pass, score?, reason? })${model}, got ${describeReceived(judge)}.`,
  )
}

function judgeRunFact({ grade, judge }: Judgement): string {
  return `judged by "${grade.source}" in its own run ${judge.traceId}${judge.path === undefined ? '' : ` (${shownPath(judge.path)})`}`
}

export async function toNeverMakeUserRepeat(this: MatcherState, received: unknown, judge: unknown): Promise<MatcherOutcome> {
  const name = 'toNeverMakeUserRepeat'
  const trace = receivedTrace(name, received)
  const hooks = hooksOf(name, judge)
  if (!Array.isArray(trace.conversation?.messages))
    throw new TypeError(
      `${name}(): "${trace.name}" is not a conversation (its trace has no conversation field): run the agent with conversation() from 'reagent-flow/simulate'.`,
    )
  const judgement = await gradeRun(name, received, hooks, NEVER_REPEAT_RUBRIC)
  const { pass, reason } = judgement.verdict
  const why = reason === null ? ' (the judge gave no reason)' : `: ${reason}`
  const causes = [judgeRunFact(judgement)]
  const headline = pass
    ? `expected the user to have had to repeat information, but the judge said they never did${why}`
    : `expected the user never to have to repeat information, but the judge said they did${why}`
  return { pass, message: () => describeFailure(trace, headline, { causes }) }
}
