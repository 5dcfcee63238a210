/**
 * A judge that grades a run against a rubric: `judge({ rubric, model })`
 * from `reagent-flow/simulate` builds one (its model is asked there, through
 * its SDK); a plain function is a rule-based one. Called on a run it resolves
 * to `{ pass, score, reason }`; `toReachGoal` and `assertGoalReached` take it
 * too (the goal becomes the rubric). Either way it works in the judge's own
 * run (judge-session.ts) and its verdict is the run's grade.
 *
 * The judge is a function marked with JUDGE_HOOKS, so the layers below
 * `simulate` (the matchers, goal.ts) can use a judge without knowing how its
 * model is asked.
 */
import { formatTranscript } from '../report/transcript.js'
import { finalResponse } from '../trace/facts.js'
import { epochSeconds } from '../trace/ids.js'
import type { Grade, Trace } from '../trace/types.js'
import { requireOptions, toTrace, type TraceSource } from '../assert/arguments.js'
import { describeReceived } from '../assert/received.js'
import { recordGrade, runJudgeSession, settingsOf } from './judge-session.js'
import type { ClosedSession, Session } from './session.js'

/** What a judge is shown of the run it grades. */
export interface JudgeInput {
  /** What the run is graded by: the rubric (with `toReachGoal`, the goal to reach). */
  rubric: string
  /** The run as plain text (see formatTranscript): the request, each turn's calls, results and text, the end. */
  transcript: string
  /** The conversation (`trace.conversation`), one line per message (`user: ...`, `assistant: ...`); null when the run was not a conversation. */
  conversation: string | null
  /** The run's final answer (the last text the model gave), null when it gave none. */
  answer: string | null
  /** The judged run's trace. */
  trace: Trace
  /** The judge's own session: a model call made in it is recorded there. */
  session: Session
}

/** What a rule-based judge (or the model's `grade` call) answers: `pass`, or a `score` from 0 to 1, or both, and why. */
export interface JudgeAnswer {
  pass?: boolean
  score?: number
  reason?: string | null
}

/** A rule-based judge: a function of what the judge is shown. */
export type RuleJudge = (input: JudgeInput) => JudgeAnswer | PromiseLike<JudgeAnswer>

/** A judge's verdict on one run. */
export interface JudgeVerdict {
  pass: boolean
  /** From 0 (the rubric is not met at all) to 1 (fully met); 1 or 0 for a judge that answered only pass. */
  score: number
  reason: string | null
}

export const JUDGE_HOOKS = Symbol.for('reagent-flow.judge.v1')

/** How a judge decides: what `judge()` puts behind the function it returns. */
export interface JudgeHooks {
  /** The rubric given to `judge()`; undefined when it judges a goal (toReachGoal) or the run's `metadata.goal`. */
  rubric: string | undefined
  /** `pass` is `score >= passScore` when set; else the judge's own `pass`, and `score >= 0.5` when it gave none. */
  passScore: number | undefined
  /** Who judges, as the grade's `source`: `"judge (gpt-4o-mini)"`, `"rule judge"`. */
  source: string
  /** Asks the judge, run inside the judge's own session; resolves to its answer (checked by verdictOf). */
  ask(input: JudgeInput): Promise<unknown>
}

/** A judge: call it on a run (a closed Session, a Trace, a chain node) for its verdict, kept as the run's grade. */
export interface Judge {
  (run: TraceSource): Promise<JudgeVerdict>
  readonly [JUDGE_HOOKS]: JudgeHooks
}

export function isJudge(value: unknown): value is Judge {
  return typeof value === 'function' && typeof (value as Partial<Judge>)[JUDGE_HOOKS] === 'object'
}

const DEFAULT_PASS_SCORE = 0.5

/** The verdict in `answer`, or a TypeError naming what a judge must answer (`fn` is the caller). */
export function verdictOf(fn: string, answer: unknown, passScore: number | undefined): JudgeVerdict {
  const fields = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : undefined
  const { pass, score, reason } = fields ?? {}
  const scoreOk = score === undefined || (typeof score === 'number' && score >= 0 && score <= 1)
  const passOk = pass === undefined || typeof pass === 'boolean'
  const reasonOk = reason === undefined || reason === null || typeof reason === 'string'
  if (fields === undefined || !scoreOk || !passOk || !reasonOk || (pass === undefined && score === undefined)) {
    throw new TypeError(`${fn}(): the judge must answer { pass: boolean, score?: number from 0 to 1, reason?: string }, got ${describeReceived(answer)}.`)
  }
  const given = { pass: pass as boolean | undefined, score: score as number | undefined }
  const verdict =
    given.score !== undefined && (passScore !== undefined || given.pass === undefined)
      ? given.score >= (passScore ?? DEFAULT_PASS_SCORE)
      : (given.pass as boolean)
  return { pass: verdict, score: given.score ?? (verdict ? 1 : 0), reason: (reason as string | null | undefined) ?? null }
}

/** The conversation of a run as lines (`user: ...`), null when it has none. */
export function conversationText(trace: Trace): string | null {
  const messages = trace.conversation?.messages
  if (!Array.isArray(messages) || messages.length === 0) return null
  return messages.map((message) => `${message.role}: ${message.content}`).join('\n')
}

/** What the run is graded by: the judge's rubric, else the run's goal (`metadata.goal`, then the conversation's). */
function rubricOf(fn: string, hooks: JudgeHooks, trace: Trace): string {
  if (hooks.rubric !== undefined) return hooks.rubric
  const goal = trace.metadata['goal'] ?? trace.conversation?.goal
  if (typeof goal === 'string' && goal.trim() !== '') return goalRubric(goal)
  throw new TypeError(
    `${fn}(): "${trace.name}" has nothing to be judged by: give the judge a rubric (judge({ rubric: 'The agent refunds order 42', model })), or open its session with { metadata: { goal } }.`,
  )
}

/** The rubric a goal makes (toReachGoal with a judge). */
export function goalRubric(goal: string, rubric?: string): string {
  const reached = `The agent reached this goal: ${goal}`
  return rubric === undefined ? reached : `${reached}\n${rubric}`
}

/** Asks the judge of `hooks` on `trace`, inside `own` (the judge's session), and checks its answer. */
export async function askJudge(fn: string, hooks: JudgeHooks, trace: Trace, rubric: string, own: Session): Promise<JudgeVerdict> {
  const input: JudgeInput = {
    rubric,
    transcript: formatTranscript(trace),
    conversation: conversationText(trace),
    answer: finalResponse(trace),
    trace,
    session: own,
  }
  return verdictOf(fn, await hooks.ask(input), hooks.passScore)
}

/** A judge's verdict on one run, as recorded. */
export interface Judgement {
  verdict: JudgeVerdict
  rubric: string
  grade: Grade
  /** The judge's own run. */
  judge: ClosedSession<JudgeVerdict>
  trace: Trace
}

/**
 * Grades the run of `source` with the judge of `hooks` in its own run
 * (`<name> > judge`, see judge-session.ts) and records the verdict as the
 * run's grade. `rubric` overrides the judge's own (a matcher's question).
 */
export async function gradeRun(fn: string, source: unknown, hooks: JudgeHooks, rubric?: string): Promise<Judgement> {
  const trace = toTrace(fn, source)
  if (settingsOf(source).isOpen) throw new TypeError(`${fn}(): the session "${trace.name}" is still open: judge it once session() has resolved.`)
  const asked = rubric ?? rubricOf(fn, hooks, trace)
  const judged = await runJudgeSession(source, trace, { rubric: asked }, (own) => askJudge(fn, hooks, trace, asked, own))
  const { pass, reason } = judged.output
  const grade: Grade = { grade: pass ? 'pass' : 'fail', source: hooks.source, reason, ref: judged.traceId, graded_at: epochSeconds() }
  recordGrade(trace, grade, source)
  return { verdict: judged.output, rubric: asked, grade, judge: judged, trace }
}

/** Builds the judge function of `hooks`: `await j(run)` grades the run and resolves to the verdict. */
export function makeJudge(hooks: JudgeHooks): Judge {
  const judge = async (run: TraceSource): Promise<JudgeVerdict> => (await gradeRun('judge', run, hooks)).verdict
  return Object.assign(judge, { [JUDGE_HOOKS]: hooks }) as Judge
}

/** The hooks of a rule-based judge: a function of what the judge is shown. */
export function ruleJudgeHooks(rule: RuleJudge, rubric: string | undefined, passScore: number | undefined): JudgeHooks {
  return { rubric, passScore, source: 'rule judge', ask: async (input) => rule(input) }
}

/** Checks the options a judge takes on top of its model; `fn` names the caller. */
export function checkJudgeOptions(fn: string, options: unknown): { rubric: string | undefined; passScore: number | undefined; model: unknown } {
  const checked = requireOptions(fn, options, ['rubric', 'model', 'passScore'])
  const { rubric, passScore, model } = checked as { rubric?: unknown; passScore?: unknown; model?: unknown }
  if (rubric !== undefined && (typeof rubric !== 'string' || rubric.trim() === ''))
    throw new TypeError(`${fn}(): options.rubric must be a non-empty string, got ${describeReceived(rubric)}.`)
  if (passScore !== undefined && (typeof passScore !== 'number' || !(passScore >= 0 && passScore <= 1)))
    throw new TypeError(`${fn}(): options.passScore must be a number from 0 to 1, got ${describeReceived(passScore)}.`)
  if (model === undefined)
    throw new TypeError(
      `${fn}(): options.model is required: a model ({ client: new OpenAI(), model: 'gpt-4o-mini' }, an AI SDK or LangChain model) or a function (input) => ({ pass, score?, reason? }).`,
    )
  return { rubric: rubric as string | undefined, passScore: passScore as number | undefined, model }
}
