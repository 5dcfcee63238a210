/**
 * `judge({ rubric, model, passScore })`: a judge that grades a run against a
 * rubric by asking a model (through its SDK, so the call is recorded in the
 * judge's own run, `<name> > judge`, and replayed from it), or by a function
 * for a rule-based verdict. The model answers with a structured call,
 * `grade({ score, pass, reason })`, never with free text to parse. The
 * machinery it shares with the goal judge (the judge's run, the grade) is
 * run/rubric-judge.ts and run/judge-session.ts.
 */
import { JudgeAnswerError } from '../errors/index.js'
import { checkJudgeOptions, makeJudge, ruleJudgeHooks, verdictOf, type Judge, type JudgeHooks, type JudgeInput, type RuleJudge } from '../run/rubric-judge.js'
import { askModel, checkModel, modelLabel } from './ask-model.js'
import type { ChatMessage, ModelRequest, ModelTool, SimulationModel } from './model-types.js'

export interface JudgeOptions {
  /**
   * What the run is graded by, in words. Default: the goal (`toReachGoal`'s,
   * else the run's `metadata.goal`, else its conversation's goal).
   * @example { rubric: 'The agent confirms the refund amount before issuing it' }
   */
  rubric?: string
  /** The judge: a model (`{ client: new OpenAI(), model: 'gpt-4o-mini' }`, an AI SDK or LangChain model), or a function `(input) => ({ pass, score?, reason? })` for a rule-based verdict. */
  model: SimulationModel | RuleJudge
  /** The score (0 to 1) from which the run passes. Default: the judge's own `pass`. @example { passScore: 0.8 } */
  passScore?: number
}

/** The judge model's instructions; the rubric and the run come as the user message (see judgePrompt). */
export const JUDGE_SYSTEM_PROMPT =
  "You are a strict, impartial judge of an AI agent's run. Read the rubric and the run, then call the grade tool once: " +
  'score from 0 (the rubric is not met at all) to 1 (fully met), pass (whether the rubric is met), ' +
  'and reason (one or two sentences that cite what the agent did or said). Judge only by the rubric and what the run shows.'

/** The structured answer the judge model must give. */
export const GRADE_TOOL: ModelTool = {
  name: 'grade',
  description: 'Give your verdict on the run.',
  parameters: {
    type: 'object',
    properties: {
      score: { type: 'number', minimum: 0, maximum: 1, description: 'How fully the rubric is met: 0 not at all, 1 fully.' },
      pass: { type: 'boolean', description: 'Whether the rubric is met.' },
      reason: { type: 'string', description: 'Why, citing the run.' },
    },
    required: ['score', 'pass', 'reason'],
    additionalProperties: false,
  },
}

/** What the judge model is shown: the rubric, the conversation when there is one, and the run. */
export function judgePrompt(input: Pick<JudgeInput, 'rubric' | 'conversation' | 'transcript'>): string {
  const parts = [`Rubric:\n${input.rubric}`]
  if (input.conversation !== null) parts.push(`Conversation:\n${input.conversation}`)
  parts.push(`Run:\n${input.transcript}`)
  return parts.join('\n\n')
}

const RETRY_NUDGE = 'Give your verdict by calling the grade tool with score (0 to 1), pass and reason.'

/** The arguments of the answer's `grade` call, or what is wrong with the answer. */
function gradeOf(answer: { text: string | null; toolCalls: ReadonlyArray<{ name: string; arguments: unknown }> }): { args: unknown } | { problem: string } {
  const call = answer.toolCalls.find((toolCall) => toolCall.name === GRADE_TOOL.name)
  if (call !== undefined) return { args: call.arguments }
  return {
    problem: answer.text === null ? 'it answered nothing' : `it answered in text instead of calling grade (${JSON.stringify(answer.text.slice(0, 80))})`,
  }
}

/** Asks `model` for a verdict, once more when its first answer is not one; the second miss is a JudgeAnswerError. */
async function askForVerdict(model: SimulationModel, input: JudgeInput, passScore: number | undefined): Promise<unknown> {
  const messages: ChatMessage[] = [{ role: 'user', content: judgePrompt(input) }]
  let problem = ''
  for (let attempt = 0; attempt < 2; attempt++) {
    const request: ModelRequest = { system: JUDGE_SYSTEM_PROMPT, messages, tools: [GRADE_TOOL], toolChoice: 'required' }
    const answer = await askModel('judge()', model, request)
    const graded = gradeOf(answer)
    if ('args' in graded) {
      try {
        verdictOf('judge', graded.args, passScore)
        return graded.args
      } catch (error) {
        if (!(error instanceof TypeError)) throw error
        problem = `it called grade with ${JSON.stringify(graded.args)}, not { score: 0..1, pass, reason }`
        messages.push({ role: 'assistant', content: `grade(${JSON.stringify(graded.args)})` }, { role: 'user', content: `${problem}. ${RETRY_NUDGE}` })
        continue
      }
    }
    problem = graded.problem
    messages.push({ role: 'assistant', content: answer.text ?? '' }, { role: 'user', content: RETRY_NUDGE })
  }
  throw new JudgeAnswerError(input.trace.name, `${problem}, twice`)
}

/**
 * A judge: `await j(run)` grades a run (a closed Session, a Trace) against
 * the rubric and resolves to `{ pass, score, reason }`, recorded as the
 * run's grade; `toReachGoal(j)` / `assertGoalReached(s, j)` judge the goal
 * with it, and `toNeverMakeUserRepeat(j)` a conversation.
 *
 * @example
 * const polite = judge({ rubric: 'The agent stays polite when the user is rude', model: { client: openai, model: 'gpt-4o-mini' } })
 * const { pass, score, reason } = await polite(conv)
 */
export function judge(options: JudgeOptions): Judge {
  const { rubric, passScore, model } = checkJudgeOptions('judge', options)
  if (typeof model === 'function') return makeJudge(ruleJudgeHooks(model as RuleJudge, rubric, passScore))
  const asked = checkModel('judge()', model)
  const hooks: JudgeHooks = {
    rubric,
    passScore,
    source: `judge (${modelLabel(asked)})`,
    ask: (input) => askForVerdict(asked, input, passScore),
  }
  return makeJudge(hooks)
}
