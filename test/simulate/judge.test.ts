import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { scriptedFetch } from '../../src/entries/fake.js'
import { loadTrace, session, type Session } from '../../src/entries/index.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { judge, type JudgeInput } from '../../src/entries/simulate.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

const GOAL = 'Refund order 42'

function refundAgent(s: Session): string {
  s.logLlmCall({
    messages: [{ role: 'user', content: 'Refund order 42, please.' }],
    toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' }, callId: 'c1' }],
    model: 'gpt-4o-mini',
    tokenUsage: { input_tokens: 120, output_tokens: 12 },
  })
  s.logToolResult('issue_refund', { callId: 'c1', result: { refund_id: 'r_42' } })
  s.logLlmCall({ responseText: 'Refunded order 42.', model: 'gpt-4o-mini', tokenUsage: { input_tokens: 150, output_tokens: 9 } })
  return 'Refunded order 42.'
}

const refundRun = (traceDir: string, options: { replay?: 'record' | 'replay' } = {}) =>
  session('refund-agent', { traceDir, metadata: { goal: GOAL }, ...options }, refundAgent)

describe('judge({ rubric, model })', () => {
  it("grades a run against the rubric in its own child run, and keeps the verdict as the run's grade", async () => {
    const traceDir = tempDir()
    const s = await refundRun(traceDir)
    let shown: JudgeInput | undefined
    const refunded = judge({
      rubric: 'The agent confirms the refund to the customer',
      model: (input) => {
        shown = input
        return { score: 0.9, pass: true, reason: 'it said "Refunded order 42."' }
      },
    })

    expect(await refunded(s)).toEqual({ pass: true, score: 0.9, reason: 'it said "Refunded order 42."' })

    expect(shown).toMatchObject({ rubric: 'The agent confirms the refund to the customer', answer: 'Refunded order 42.', conversation: null, trace: s.trace })
    expect(shown!.transcript).toBe(
      [
        'user: Refund order 42, please.',
        'turn 0: called issue_refund({"order_id":"42"})',
        '  issue_refund returned {"refund_id":"r_42"}',
        'turn 1: answered “Refunded order 42.”',
        'the run completed',
      ].join('\n'),
    )
    expect(shown!.session.name).toBe('refund-agent > judge')
    expect(readdirSync(traceDir).sort()).toEqual(['refund-agent.trace.json', 'refund-agent___judge.trace.json'])
    const judgeRun = loadTrace(join(traceDir, 'refund-agent___judge.trace.json'))
    expect(judgeRun).toMatchObject({ name: 'refund-agent > judge', parent_trace_id: s.traceId, status: 'completed' })
    expect(judgeRun.metadata).toEqual({
      reagent_role: 'judge',
      judged_trace_id: s.traceId,
      judged_name: 'refund-agent',
      rubric: 'The agent confirms the refund to the customer',
    })
    const grade = { grade: 'pass', source: 'rule judge', reason: 'it said "Refunded order 42."', ref: judgeRun.trace_id, graded_at: expect.any(Number) }
    expect(s.trace.grade).toEqual(grade)
    expect(loadTrace(s.path!).grade).toEqual(s.trace.grade)
  })

  it("passes from passScore when it is given, else by the judge's own verdict, and takes a verdict without a score", async () => {
    const trace = buildTrace('refund-agent', [{ text: 'Refunded order 42.' }], { metadata: { goal: GOAL } })
    expect(await judge({ model: () => ({ score: 0.6, pass: false }) })(trace)).toEqual({ pass: false, score: 0.6, reason: null })
    expect(await judge({ model: () => ({ score: 0.6, pass: false }), passScore: 0.5 })(trace)).toEqual({ pass: true, score: 0.6, reason: null })
    expect(await judge({ model: () => ({ score: 0.7, pass: true }), passScore: 0.8 })(trace)).toEqual({ pass: false, score: 0.7, reason: null })
    expect(await judge({ model: () => ({ score: 0.5 }) })(trace)).toEqual({ pass: true, score: 0.5, reason: null })
    expect(await judge({ model: async () => ({ pass: false, reason: 'no' }) })(trace)).toEqual({ pass: false, score: 0, reason: 'no' })
    expect(trace.grade).toMatchObject({ grade: 'fail', reason: 'no' })
  })

  it("grades by the run's goal when it has no rubric, and needs one of them", async () => {
    let rubric = ''
    const byGoal = judge({
      model: (input) => {
        rubric = input.rubric
        return { pass: true }
      },
    })
    await byGoal(buildTrace('refund-agent', [{ text: 'Refunded.' }], { metadata: { goal: GOAL } }))
    expect(rubric).toBe('The agent reached this goal: Refund order 42')
    await expect(byGoal(buildTrace('no-goal', [{ text: 'Refunded.' }]))).rejects.toThrow(
      new TypeError(
        `judge(): "no-goal" has nothing to be judged by: give the judge a rubric (judge({ rubric: 'The agent refunds order 42', model })), or open its session with { metadata: { goal } }.`,
      ),
    )
  })

  it("records a model call the judge makes in the judge's run, and replays it offline when the judged run replays", async () => {
    const traceDir = tempDir()
    const verdict = '{"pass": true, "score": 1, "reason": "refund r_42 confirmed"}'
    const askingJudge = (fetch: typeof globalThis.fetch) => {
      const openai = instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 0 }))
      return judge({
        rubric: 'The agent confirms the refund',
        model: async ({ rubric, transcript }) => {
          const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `${rubric}\n\n${transcript}` }] })
          return JSON.parse(completion.choices[0]!.message.content ?? '{}') as { pass: boolean; score: number; reason: string }
        },
      })
    }
    const recorded = await refundRun(traceDir, { replay: 'record' })
    expect(await askingJudge(scriptedFetch([{ text: verdict, usage: { inputTokens: 90, outputTokens: 14 } }]))(recorded)).toEqual({
      pass: true,
      score: 1,
      reason: 'refund r_42 confirmed',
    })

    const offline: typeof globalThis.fetch = async () => {
      throw new Error('no socket may be opened in replay')
    }
    const replayed = await refundRun(traceDir, { replay: 'replay' })
    expect(await askingJudge(offline)(replayed)).toEqual({ pass: true, score: 1, reason: 'refund r_42 confirmed' })
    const judgeRun = loadTrace(join(traceDir, 'refund-agent___judge.trace.json'))
    expect(judgeRun.turns.map((turn) => [turn.llm_call.response_text, turn.llm_call.replayed])).toEqual([[verdict, true]])
    // The agent's own trace holds the agent's calls only.
    expect(replayed.trace.turns.map((turn) => turn.llm_call.model)).toEqual(['gpt-4o-mini', 'gpt-4o-mini'])
  })

  it('rejects bad options when it is built, and a bad verdict when it answers', async () => {
    expect(() => judge({} as never)).toThrow(
      new TypeError(
        "judge(): options.model is required: a model ({ client: new OpenAI(), model: 'gpt-4o-mini' }, an AI SDK or LangChain model) or a function (input) => ({ pass, score?, reason? }).",
      ),
    )
    expect(() => judge({ model: () => ({ pass: true }), passScore: 2 })).toThrow(
      new TypeError('judge(): options.passScore must be a number from 0 to 1, got 2 (number).'),
    )
    expect(() => judge({ model: () => ({ pass: true }), rubric: ' ' })).toThrow(
      new TypeError('judge(): options.rubric must be a non-empty string, got " " (string).'),
    )
    expect(() => judge({ model: () => ({ pass: true }), rubrik: 'x' } as never)).toThrow(
      new TypeError('judge(): unknown option "rubrik". Valid options: rubric, model, passScore.'),
    )
    const trace = buildTrace('refund-agent', [{ text: 'Refunded.' }], { metadata: { goal: GOAL } })
    await expect(judge({ model: () => ({ score: 1.5 }) })(trace)).rejects.toThrow(
      new TypeError('judge(): the judge must answer { pass: boolean, score?: number from 0 to 1, reason?: string }, got an object with key "score".'),
    )
    await expect(judge({ model: () => ({ reason: 'fine' }) })(trace)).rejects.toThrow(/^judge\(\): the judge must answer/)
    expect(trace.grade).toBeUndefined()
  })
})
