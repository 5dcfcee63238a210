/**
 * judge() with a model: how it asks (the request askModel is given) and what
 * it does with the answer. askModel is ask-model.ts's, tested with each SDK
 * there; here it is replaced by a script of answers, so these tests are about
 * the judge alone.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { isJudgeAnswerError, JudgeAnswerError, judge, JUDGE_SYSTEM_PROMPT } from '../../src/entries/simulate.js'
import type { ModelAnswer, ModelRequest } from '../../src/simulate/model-types.js'
import { buildTrace } from '../helpers/trace-builder.js'

const asked: Array<{ who: string; request: ModelRequest }> = []
let answers: ModelAnswer[] = []

vi.mock('../../src/simulate/ask-model.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  checkModel: (_who: string, value: unknown) => value,
  modelLabel: (model: { model: string }) => model.model,
  askModel: async (who: string, _model: unknown, request: ModelRequest): Promise<ModelAnswer> => {
    asked.push({ who, request: structuredClone(request) })
    const answer = answers.shift()
    if (answer === undefined) throw new Error('no answer scripted')
    return answer
  },
}))

const MODEL = { client: {}, model: 'gpt-4o-mini' }
const grade = (args: Record<string, unknown>): ModelAnswer => ({ text: null, toolCalls: [{ name: 'grade', arguments: args as never }] })
const run = () => buildTrace('refund-agent', [{ text: 'Refunded order 42.' }], { metadata: { goal: 'Refund order 42' } })

beforeEach(() => {
  asked.length = 0
  answers = []
})

describe('judge({ model }) asking a model', () => {
  it('asks with the judge prompt, the rubric and the run, offering only the grade tool, and takes its verdict', async () => {
    answers = [grade({ score: 0.8, pass: true, reason: 'refund confirmed' })]
    const trace = run()
    expect(await judge({ rubric: 'The agent confirms the refund', model: MODEL })(trace)).toEqual({ pass: true, score: 0.8, reason: 'refund confirmed' })
    expect(asked).toHaveLength(1)
    const { who, request } = asked[0]!
    expect(who).toBe('judge()')
    expect(request.system).toBe(JUDGE_SYSTEM_PROMPT)
    expect(request.messages).toEqual([
      { role: 'user', content: 'Rubric:\nThe agent confirms the refund\n\nRun:\nturn 0: answered “Refunded order 42.”\nthe run completed' },
    ])
    expect([request.toolChoice, request.tools?.map((tool) => [tool.name, tool.parameters['required']])]).toEqual([
      'required',
      [['grade', ['score', 'pass', 'reason']]],
    ])
    expect(trace.grade).toMatchObject({ grade: 'pass', source: 'judge (gpt-4o-mini)', reason: 'refund confirmed' })
  })

  it('asks once more when the model answers in text or with a bad grade, then takes the second answer', async () => {
    answers = [{ text: 'Looks good to me.', toolCalls: [] }, grade({ score: 0.2, pass: false, reason: 'no refund id' })]
    expect(await judge({ rubric: 'r', model: MODEL, passScore: 0.5 })(run())).toEqual({ pass: false, score: 0.2, reason: 'no refund id' })
    expect(asked[1]!.request.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Looks good to me.' },
      { role: 'user', content: 'Give your verdict by calling the grade tool with score (0 to 1), pass and reason.' },
    ])
  })

  it('fails with JudgeAnswerError after two answers that are no verdict, and writes no grade', async () => {
    answers = [grade({ score: 7, pass: true, reason: 'x' }), { text: null, toolCalls: [] }]
    const trace = run()
    const failure = await judge({ rubric: 'r', model: MODEL })(trace).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(JudgeAnswerError)
    expect(isJudgeAnswerError(failure)).toBe(true)
    expect((failure as JudgeAnswerError).message).toBe(
      'The judge of "refund-agent" gave no verdict: it answered nothing, twice. Use a model that supports tool calls, or pass a function as the judge\'s model for a rule-based verdict.',
    )
    expect(asked[1]!.request.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'grade({"score":7,"pass":true,"reason":"x"})' },
      {
        role: 'user',
        content:
          'it called grade with {"score":7,"pass":true,"reason":"x"}, not { score: 0..1, pass, reason }. Give your verdict by calling the grade tool with score (0 to 1), pass and reason.',
      },
    ])
    expect(trace.grade).toBeUndefined()
  })

  it('shows the model the conversation between the rubric and the run when the run is one', async () => {
    answers = [grade({ score: 1, pass: true, reason: 'ok' })]
    const trace = buildTrace('support', [{ text: 'Refunded.' }], {
      conversation: {
        goal: 'Refund order 42',
        persona: null,
        ended_by: 'user',
        goal_met: true,
        reason: 'done',
        max_turns: 4,
        exchanges: 1,
        user_trace_id: null,
        messages: [
          { role: 'user', content: 'refund 42', exchange: 1 },
          { role: 'assistant', content: 'Refunded.', exchange: 1, turns: [0] },
        ],
      },
    })
    await judge({ model: MODEL })(trace)
    expect(asked[0]!.request.messages[0]!.content).toBe(
      'Rubric:\nThe agent reached this goal: Refund order 42\n\nConversation:\nuser: refund 42\nassistant: Refunded.\n\nRun:\nturn 0: answered “Refunded.”\nthe run completed',
    )
  })
})
