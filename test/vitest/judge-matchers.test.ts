import { describe, expect, it } from 'vitest'
import { AgentAssertionError, assertGoalReached, session, type Session } from '../../src/entries/index.js'
import '../../src/entries/vitest.js'
import { judge, type JudgeInput } from '../../src/entries/simulate.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

const GOAL = 'Refund order 42'

function refundAgent(s: Session): string {
  s.logLlmCall({ messages: [{ role: 'user', content: 'Refund order 42, please.' }], responseText: 'Refunded order 42.', model: 'gpt-4o-mini' })
  return 'Refunded order 42.'
}

const refundRun = (traceDir: string) => session('refund-agent', { traceDir, metadata: { goal: GOAL } }, refundAgent)

/** A conversation as conversation() records it: the user gave the order number, and the agent asked for it again. */
function supportConversation(): ReturnType<typeof buildTrace> {
  return buildTrace('support', [{ text: 'What is your order number?' }, { text: 'Refunded order 42.' }], {
    conversation: {
      goal: GOAL,
      persona: null,
      ended_by: 'user',
      goal_met: true,
      reason: 'refunded',
      max_turns: 8,
      exchanges: 2,
      user_trace_id: null,
      messages: [
        { role: 'user', content: 'Refund order 42 please', exchange: 1 },
        { role: 'assistant', content: 'What is your order number?', exchange: 1, turns: [0] },
        { role: 'user', content: 'I said: 42', exchange: 2 },
        { role: 'assistant', content: 'Refunded order 42.', exchange: 2, turns: [1] },
      ],
    },
  })
}

/** A rule-based "never repeat" judge: the user repeated when they wrote "I said". */
const saidTwice = ({ conversation }: JudgeInput) =>
  conversation?.includes('I said') === true ? { pass: false, reason: 'the user had to give the order number twice' } : { pass: true }

describe('a judge({ model }) in toReachGoal and assertGoalReached', () => {
  it('judges the goal as its rubric (its own rubric added), in the run `<name> > judge`, named by its source', async () => {
    const s = await refundRun(tempDir())
    const rubrics: string[] = []
    const strict = judge({
      rubric: 'The customer is told when the money arrives',
      model: ({ rubric }) => {
        rubrics.push(rubric)
        return { pass: false, reason: 'no date was given' }
      },
    })
    const failure = await assertGoalReached(s, strict).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AgentAssertionError)
    expect((failure as AgentAssertionError).assertion).toBe('The agent did not reach its goal "Refund order 42": no date was given')
    expect(s.trace.grade).toMatchObject({ grade: 'fail', source: 'rule judge', reason: 'no date was given' })

    await expect(s).toReachGoal(judge({ model: ({ rubric }) => ({ pass: rubric.startsWith('The agent reached this goal'), reason: 'refunded' }) }))
    expect(rubrics).toEqual(['The agent reached this goal: Refund order 42\nThe customer is told when the money arrives'])
    expect(s.trace.grade).toMatchObject({ grade: 'pass', source: 'rule judge', reason: 'refunded' })
  })
})

describe('toNeverMakeUserRepeat()', () => {
  it("passes when the judge says the user never repeated, fails with the judge's reason when they did", async () => {
    const conv = supportConversation()
    const fine = buildTrace('fine', [{ text: 'Refunded order 42.' }], {
      conversation: {
        ...conv.conversation!,
        messages: [
          { role: 'user', content: 'Refund order 42', exchange: 1 },
          { role: 'assistant', content: 'Refunded order 42.', exchange: 1, turns: [0] },
        ],
      },
    })
    await expect(fine).toNeverMakeUserRepeat(saidTwice)
    await expect(expect(conv).toNeverMakeUserRepeat(saidTwice)).rejects.toThrow(
      /^expected the user never to have to repeat information, but the judge said they did: the user had to give the order number twice\n/,
    )
    expect(conv.grade).toMatchObject({ grade: 'fail', source: 'rule judge', reason: 'the user had to give the order number twice' })
    await expect(conv).not.toNeverMakeUserRepeat(saidTwice)
  })

  it('shows the judge the conversation and its rubric, through a judge({ model }) as well', async () => {
    let shown: JudgeInput | undefined
    await expect(supportConversation()).toNeverMakeUserRepeat(
      judge({
        model: (input) => {
          shown = input
          return { pass: true, score: 1 }
        },
      }),
    )
    expect(shown!.conversation).toBe(
      ['user: Refund order 42 please', 'assistant: What is your order number?', 'user: I said: 42', 'assistant: Refunded order 42.'].join('\n'),
    )
    expect(shown!.rubric).toBe(
      'The user never had to repeat information: the agent never asked again for something the user had already given (an order number, a name, a date, an address), and the user never had to restate it because the agent ignored or forgot it.',
    )
  })

  it('is a TypeError for a run that is not a conversation, and for a judge that is not one', async () => {
    const s = await refundRun(tempDir())
    await expect(expect(s).toNeverMakeUserRepeat(saidTwice)).rejects.toThrow(
      new TypeError(
        `toNeverMakeUserRepeat(): "refund-agent" is not a conversation (its trace has no conversation field): run the agent with conversation() from 'reagent-flow/simulate'.`,
      ),
    )
    await expect(expect(supportConversation()).toNeverMakeUserRepeat({ client: {}, model: 'gpt-4o-mini' } as never)).rejects.toThrow(
      new TypeError(
        'toNeverMakeUserRepeat(): the judge must be a judge({ model }) or a function (input) => ({ pass, score?, reason? }) (to ask a model, wrap it: judge({ model }) from \'reagent-flow/simulate\'), got an object with keys "client", "model".',
      ),
    )
  })
})
