/**
 * Was the agent's goal reached? A judge the test supplies decides (a
 * function, sync or async: a rule, or a call to a model), and its verdict is
 * kept on the run as its `grade`, where `reagent-flow get`, `list --grade`,
 * the viewer and the run ledger show it.
 *
 * The judge runs in a session of its own, `<run name> > judge`, a child of
 * the judged run (judge-session.ts), so a model call it makes is recorded
 * (and replayed) like any other, but never into the judged run: the agent's
 * trace, its golden and its budgets stay what the agent did. The grade's
 * `ref` is that session's trace_id. A `judge({ model })` of
 * `reagent-flow/simulate` is a judge too: the goal becomes its rubric.
 */
import { shownPath } from '../golden/index.js'
import { cut } from '../report/format-value.js'
import { formatTranscript } from '../report/transcript.js'
import type { ClosedSession, Session } from './session.js'
import { finalResponse } from '../trace/facts.js'
import { epochSeconds } from '../trace/ids.js'
import type { Grade, Trace } from '../trace/types.js'
import { recordGrade, runJudgeSession, settingsOf } from './judge-session.js'
import { askJudge, goalRubric, isJudge, JUDGE_HOOKS, type Judge } from './rubric-judge.js'
import { requireOptions, toTrace, type TraceSource } from '../assert/arguments.js'
import { describeReceived } from '../assert/received.js'
import { fail } from '../assert/fail.js'

/** What a judge is given. */
export interface GoalJudgeInput {
  /** The goal to judge: the `goal` option, else the run's `metadata.goal`. */
  goal: string
  /** The run's final answer (the last text the model gave), null when it gave none. */
  answer: string | null
  /** The run as plain text, for a judge's prompt: the request, each turn's calls, results, errors and text, the end. The same run gives the same text (no timings or ids). */
  transcript: string
  /** The judged run's trace. */
  trace: Trace
  /** The judge's own session: an instrumented client records into it by itself; log by hand with `session.logLlmCall`. */
  session: Session<unknown>
}

/** A judge's verdict: reached or not, and why. */
export interface GoalVerdict {
  reached: boolean
  reason?: string | undefined
}

/** Decides whether `input.goal` was reached: `true`/`false`, or `{ reached, reason }`, or a promise of either. */
export type GoalJudge = (input: GoalJudgeInput) => boolean | GoalVerdict | PromiseLike<boolean | GoalVerdict>

export interface GoalOptions {
  /** The goal. Default: the run's `metadata.goal`. @example { goal: 'Refund order 42 in full' } */
  goal?: string
  /** Who judged, kept as the grade's `source`. Default: `"goal judge"` (a `judge({ model })`: its own, `"judge (gpt-4o-mini)"`). @example { source: 'gpt-4o judge' } */
  source?: string
}

/** A judge's verdict on one run, as recorded. */
export interface GoalJudgement {
  goal: string
  reached: boolean
  reason: string | null
  /** The grade written on the judged run (`grade.ref` is the judge's trace_id). */
  grade: Grade
  /** The judge's own session: its trace holds the model calls the judge made. */
  judge: ClosedSession<GoalVerdict>
  /** The judged run's trace, with its grade set. */
  trace: Trace
}

const DEFAULT_SOURCE = 'goal judge'
const OPTION_NAMES = ['goal', 'source']

function goalOf(fn: string, trace: Trace, given: unknown): string {
  if (given !== undefined) {
    if (typeof given === 'string' && given.trim() !== '') return given
    throw new TypeError(`${fn}(): options.goal must be a non-empty string, got ${describeReceived(given)}.`)
  }
  const recorded = trace.metadata['goal']
  if (typeof recorded === 'string' && recorded.trim() !== '') return recorded
  throw new TypeError(`${fn}(): "${trace.name}" has no goal to judge: pass { goal: 'Refund order 42' }, or open its session with { metadata: { goal } }.`)
}

function verdictOf(fn: string, value: unknown): GoalVerdict {
  if (typeof value === 'boolean') return { reached: value }
  if (value !== null && typeof value === 'object' && typeof (value as GoalVerdict).reached === 'boolean') {
    const { reached, reason } = value as GoalVerdict
    if (reason === undefined || typeof reason === 'string') return reason === undefined ? { reached } : { reached, reason }
  }
  throw new TypeError(`${fn}(): the judge must return true, false or { reached: boolean, reason?: string }, got ${describeReceived(value)}.`)
}

/** `"Refund order 42"`, cut to one readable line. */
export function quoteGoal(goal: string): string {
  return JSON.stringify(cut(goal, 120))
}

/**
 * Runs `judge` (a function, or a `judge({ model })`) on the run of `source`
 * (a closed Session, a Trace, a chain node) in a session of its own, and
 * records its verdict as the run's grade.
 * `fn` names the caller in errors. The judge's own error is rethrown as it is.
 */
export async function judgeGoal(fn: string, source: unknown, judge: unknown, options: unknown = {}): Promise<GoalJudgement> {
  const trace = toTrace(fn, source)
  const hooks = isJudge(judge) ? judge[JUDGE_HOOKS] : undefined
  if (typeof judge !== 'function')
    throw new TypeError(
      `${fn}(): judge must be a function that returns true, false or { reached, reason }, or a judge({ model }), got ${describeReceived(judge)}.`,
    )
  const checked = requireOptions(fn, options, OPTION_NAMES)
  if (settingsOf(source).isOpen) throw new TypeError(`${fn}(): the session "${trace.name}" is still open: judge its goal once session() has resolved.`)
  const goal = goalOf(fn, trace, checked.goal)
  const by = checked.source ?? hooks?.source ?? DEFAULT_SOURCE
  if (typeof by !== 'string' || by === '') throw new TypeError(`${fn}(): options.source must be a non-empty string, got ${describeReceived(by)}.`)

  const transcript = formatTranscript(trace)
  const answer = finalResponse(trace)
  const judged = await runJudgeSession<GoalVerdict>(source, trace, { goal }, async (own) => {
    // A judge({ model }): the goal is its rubric (with its own rubric, if it has one, added).
    if (hooks !== undefined) {
      const { pass, reason } = await askJudge(fn, hooks, trace, goalRubric(goal, hooks.rubric), own)
      return reason === null ? { reached: pass } : { reached: pass, reason }
    }
    return verdictOf(fn, await (judge as GoalJudge)({ goal, answer, transcript, trace, session: own }))
  })
  const { reached, reason } = judged.output
  const grade: Grade = { grade: reached ? 'pass' : 'fail', source: by, reason: reason ?? null, ref: judged.traceId, graded_at: epochSeconds() }
  recordGrade(trace, grade, source)
  return { goal, reached, reason: reason ?? null, grade, judge: judged, trace }
}

/** The first line of a judgement that says the goal was not reached. */
export function notReachedHeadline(judgement: GoalJudgement): string {
  const why = judgement.reason === null ? ' (the judge gave no reason)' : `: ${judgement.reason}`
  return `The agent did not reach its goal ${quoteGoal(judgement.goal)}${why}`
}

/** Where the judge's own run is, for a failure message. */
export function judgeRunFact(judgement: GoalJudgement): string {
  const { judge } = judgement
  return `judged by "${judgement.grade.source}" in its own run ${judge.traceId}${judge.path === undefined ? '' : ` (${shownPath(judge.path)})`}`
}

/**
 * Passes when `judge` says the run of `source` reached its goal (the `goal`
 * option, else `metadata.goal`). Either way the verdict is recorded as the
 * run's grade (source "goal judge", the judge's reason, and the judge's own
 * run as ref). Resolves to the judgement; a goal not reached throws
 * `AgentAssertionError` with the judge's reason and the agent stack trace.
 *
 * @example
 * await assertGoalReached(s, async ({ goal, transcript }) => askJudgeModel(goal, transcript))
 */
export async function assertGoalReached(source: TraceSource, judge: GoalJudge, options?: GoalOptions): Promise<GoalJudgement>
export async function assertGoalReached(source: TraceSource, judge: Judge, options?: GoalOptions): Promise<GoalJudgement>
export async function assertGoalReached(source: TraceSource, judge: GoalJudge | Judge, options: GoalOptions = {}): Promise<GoalJudgement> {
  const judgement = await judgeGoal('assertGoalReached', source, judge, options)
  if (!judgement.reached) fail(judgement.trace, notReachedHeadline(judgement), { causes: [judgeRunFact(judgement)] })
  return judgement
}
