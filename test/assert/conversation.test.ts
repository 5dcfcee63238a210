import { describe, expect, it } from 'vitest'
import {
  assertCalledBeforeExchange,
  assertEndedWithGoalMet,
  assertEndedWithinExchanges,
  assertEveryReply,
  assertNotCalledBeforeExchange,
  assertOn,
  type ReplyContext,
} from '../../src/entries/index.js'
import { buildConversation, refunded, stuck } from '../helpers/conversation-traces.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const lines = (...text: string[]): string => text.join('\n')

/** The agent stack trace of `refunded`, as every failure about it draws it (the assertion and causes follow). */
const REFUNDED_TURNS = [
  'support  completed · 5 turns · 2 tool calls · 1.5s',
  '  ✓ Turn 0  0µs  gpt-4o',
  "      LLM -> “Sure, what's your order number?”",
  '  ✓ Turn 1  0µs  gpt-4o',
  '      LLM -> lookup_order({"order_id":"42"})',
  '        ✓ {"amount":19.99}',
  '  ✓ Turn 2  0µs  gpt-4o',
  '      LLM -> issue_refund({"order_id":"42","amount":19.99})',
  '        ✓ {"ok":true}',
  '  ✓ Turn 3  0µs  gpt-4o',
  '      LLM -> “Refunded $19.99 for order 42.”',
  '  ✓ Turn 4  0µs  gpt-4o',
  "      LLM -> “You're welcome!”",
]

const REFUNDED_CHAT = [
  'conversation: exchanges 1-3 of 3',
  '  1 user   “hi, I want my money back”',
  "    agent  “Sure, what's your order number?”  (turn 0)",
  '  2 user   “order 42”',
  '    agent  “Refunded $19.99 for order 42.”  (turns 1, 2, 3)',
  '  3 user   “thanks”',
  "    agent  “You're welcome!”  (turn 4)",
]

const GOAL = "the simulated user's goal: “Get a refund for order 42” (persona: “terse, impatient”)"

const NOT_A_CONVERSATION =
  'the first argument is a run that is not a conversation ("refund-agent" has no conversation on its trace). ' +
  'Run the agent with conversation(name, { user, maxTurns }, agent) from reagent-flow/simulate and pass the Session it resolves to (or a trace it wrote).'

const plainRun = buildTrace('refund-agent', [{ text: 'Refunded.' }])

describe('assertEndedWithGoalMet()', () => {
  it('passes when the simulated user ended the conversation saying its goal was met', () => {
    expect(() => assertEndedWithGoalMet(refunded)).not.toThrow()
  })

  it('fails on a conversation that reached maxTurns, saying so above the last exchanges and the agent stack trace', () => {
    expect(failureOf(() => assertEndedWithGoalMet(stuck)).message).toBe(
      lines(
        "the conversation did not end with the user's goal met: it stopped at maxTurns (3) after 3 exchanges; the user never said it was done",
        '',
        'conversation: exchanges 1-3 of 3',
        '  1 user   “hi, I want my money back”',
        '    agent  “What is your order number?”  (turn 0)',
        '  2 user   “order 42”',
        '    agent  “What is your order number?”  (turn 1)',
        '  3 user   “I SAID order 42”',
        '    agent  “What is your order number?”  (turn 2)',
        '',
        'support  completed · 3 turns · 0 tool calls · 1.5s',
        '  ✓ Turn 0  0µs  gpt-4o',
        '      LLM -> “What is your order number?”',
        '  ✓ Turn 1  0µs  gpt-4o',
        '      LLM -> “What is your order number?”',
        '  ✓ Turn 2  0µs  gpt-4o',
        '      LLM -> “What is your order number?”',
        '',
        "ASSERTION FAILED: the conversation did not end with the user's goal met: it stopped at maxTurns (3) after 3 exchanges; the user never said it was done",
        'PROBABLE CAUSE: the simulated user did not say it was done within maxTurns (3): the agent may not meet its goal, or need more exchanges than maxTurns allows',
        `                ${GOAL}`,
      ),
    )
  })

  it('fails when the user gave up, the stop function ended it, or it failed, each said in the first line', () => {
    const headline = (end: Parameters<typeof buildConversation>[2]): string =>
      failureOf(() => assertEndedWithGoalMet(buildConversation('support', [{ user: 'hi' }, { user: 'hello?' }], end))).assertion
    expect(headline({ goal_met: false, reason: 'the agent refused to refund' })).toBe(
      "the conversation did not end with the user's goal met: the user ended it after 2 exchanges with its goal not met: “the agent refused to refund”",
    )
    expect(headline({ goal_met: null, reason: 'the script is done' })).toBe(
      "the conversation did not end with the user's goal met: the user ended it after 2 exchanges without saying whether its goal was met: “the script is done”",
    )
    const unsaid = failureOf(() =>
      assertEndedWithGoalMet(
        buildConversation('support', [{ user: 'hi' }], { goal: null, persona: null, goal_met: null, reason: 'done', user_trace_id: null }),
      ),
    )
    const modelUser = buildConversation('support', [{ user: 'hi' }], { goal_met: null, reason: 'done' })
    expect(failureOf(() => assertEndedWithGoalMet(modelUser)).message).not.toContain('a scripted user')
    expect(unsaid.message).toContain('PROBABLE CAUSE: a scripted user that is done says whether its goal was met: return { done: true, reason, goalMet: true }')
    expect(headline({ ended_by: 'stop', goal_met: null, reason: 'the agent said goodbye' })).toBe(
      "the conversation did not end with the user's goal met: the stop function ended it after 2 exchanges (the agent said goodbye)",
    )
    expect(headline({ ended_by: 'error', goal_met: null, reason: 'Error: the user model returned nothing' })).toBe(
      "the conversation did not end with the user's goal met: it failed in exchange 2: Error: the user model returned nothing",
    )
  })

  it('rejects a run that is not a conversation with a TypeError saying how to make one', () => {
    expect(() => assertEndedWithGoalMet(plainRun)).toThrow(new TypeError(`assertEndedWithGoalMet(): ${NOT_A_CONVERSATION}`))
  })
})

describe('assertEndedWithinExchanges()', () => {
  it('passes when the conversation ended after at most n exchanges', () => {
    expect(() => assertEndedWithinExchanges(refunded, 3)).not.toThrow()
    expect(() => assertEndedWithinExchanges(refunded, 10)).not.toThrow()
  })

  it('fails on a conversation that took longer, naming how it ended, with the last exchanges and the goal', () => {
    expect(failureOf(() => assertEndedWithinExchanges(refunded, 2)).message).toBe(
      lines(
        'the conversation did not end within 2 exchanges: the user ended it after 3 exchanges with its goal met: “the refund was issued”',
        '',
        ...REFUNDED_CHAT,
        '',
        ...REFUNDED_TURNS,
        '',
        'ASSERTION FAILED: the conversation did not end within 2 exchanges: the user ended it after 3 exchanges with its goal met: “the refund was issued”',
        `PROBABLE CAUSE: ${GOAL}`,
      ),
    )
  })

  it('fails on a conversation that reached maxTurns, however few its exchanges: reaching the limit is not ending', () => {
    expect(failureOf(() => assertEndedWithinExchanges(stuck, 5)).assertion).toBe(
      'the conversation did not end within 5 exchanges: it stopped at maxTurns (3) after 3 exchanges; the user never said it was done',
    )
  })

  it('rejects n that is not a whole number >= 1, and a run that is not a conversation', () => {
    expect(() => assertEndedWithinExchanges(refunded, 0)).toThrow(
      new RangeError('assertEndedWithinExchanges(): n must be a whole number >= 1 (exchanges count from 1), got 0 (number).'),
    )
    expect(() => assertEndedWithinExchanges(refunded, 2.5)).toThrow(
      new RangeError('assertEndedWithinExchanges(): n must be a whole number >= 1 (exchanges count from 1), got 2.5 (number).'),
    )
    expect(() => assertEndedWithinExchanges(plainRun, 3)).toThrow(new TypeError(`assertEndedWithinExchanges(): ${NOT_A_CONVERSATION}`))
  })
})

describe('assertEveryReply()', () => {
  it('passes when every reply passes a function, a RegExp or an asymmetric matcher', () => {
    expect(() => assertEveryReply(refunded, (reply) => reply.length < 40)).not.toThrow()
    expect(() => assertEveryReply(refunded, () => undefined)).not.toThrow()
    expect(() => assertEveryReply(refunded, (reply) => expect(reply).not.toContain('@'))).not.toThrow()
    expect(() => assertEveryReply(refunded, /^[A-Z]/)).not.toThrow()
    expect(() => assertEveryReply(refunded, expect.not.stringContaining('@'))).not.toThrow()
  })

  it('gives the check each reply with its exchange, the user message it answers and its turns', () => {
    const seen: Array<[string, ReplyContext]> = []
    assertEveryReply(refunded, (reply, context) => {
      seen.push([reply, context])
    })
    expect(seen).toEqual([
      ["Sure, what's your order number?", { exchange: 1, message: 'hi, I want my money back', turns: [0] }],
      ['Refunded $19.99 for order 42.', { exchange: 2, message: 'order 42', turns: [1, 2, 3] }],
      ["You're welcome!", { exchange: 3, message: 'thanks', turns: [4] }],
    ])
  })

  it('fails on the first reply that does not match, quoting it and showing its exchange', () => {
    expect(failureOf(() => assertEveryReply(refunded, /order/)).message).toBe(
      lines(
        "the agent's reply in exchange 3 does not match /order/: “You're welcome!”",
        '',
        'conversation: exchange 3 of 3',
        '  3 user   “thanks”',
        "    agent  “You're welcome!”  (turn 4)",
        '',
        ...REFUNDED_TURNS,
        '',
        "ASSERTION FAILED: the agent's reply in exchange 3 does not match /order/: “You're welcome!”",
        'PROBABLE CAUSE: 1 of 3 replies failed (exchange 3)',
      ),
    )
    expect(failureOf(() => assertEveryReply(refunded, expect.stringContaining('order'))).assertion).toBe(
      'the agent\'s reply in exchange 3 does not match StringContaining "order": “You\'re welcome!”',
    )
  })

  it('fails on a check that throws or returns false, naming a named check and saying what it threw', () => {
    const failure = failureOf(() =>
      assertEveryReply(refunded, function noMoneyTalk(reply) {
        if (reply.includes('$')) throw new Error('mentions money\n(second line)')
      }),
    )
    expect(failure.assertion).toBe("the agent's reply in exchange 2 failed the check noMoneyTalk: “Refunded $19.99 for order 42.”")
    expect(failure.message).toContain(
      lines('conversation: exchange 2 of 3', '  2 user   “order 42”', '    agent  “Refunded $19.99 for order 42.”  (turns 1, 2, 3)'),
    )
    expect(failure.message).toContain(lines('PROBABLE CAUSE: the check threw Error: mentions money', '                1 of 3 replies failed (exchange 2)'))
    const short = failureOf(() => assertEveryReply(refunded, (reply) => reply.length < 20))
    expect(short.assertion).toBe("the agent's reply in exchange 1 failed the check: “Sure, what's your order number?”")
    expect(short.message).toContain(lines('PROBABLE CAUSE: the check returned false', '                2 of 3 replies failed (exchanges 1, 2)'))
  })

  it('fails on a conversation without a reply: a check of nothing proves nothing', () => {
    const unanswered = buildConversation('support', [{ user: 'hi' }], { ended_by: 'error', goal_met: null, reason: 'TypeError: the agent returned 42' })
    expect(failureOf(() => assertEveryReply(unanswered, /./)).assertion).toBe(
      'the agent gave no reply to check: it failed in exchange 1: TypeError: the agent returned 42',
    )
  })

  it('rejects a check of another kind, and a check that returns a promise', () => {
    expect(() => assertEveryReply(refunded, 'order' as never)).toThrow(
      new TypeError(
        'assertEveryReply(): check must be a function (reply, { exchange, message, turns }) that throws or returns false to fail, a RegExp or an asymmetric matcher (expect.stringContaining(\'order\')), got "order" (string).',
      ),
    )
    expect(() => assertEveryReply(refunded, async () => true)).toThrow(
      new TypeError(
        'assertEveryReply(): check returned a Promise for the reply of exchange 1: replies are checked synchronously. To await something for each reply, loop over trace.conversation.messages.',
      ),
    )
    expect(() => assertEveryReply(plainRun, /./)).toThrow(new TypeError(`assertEveryReply(): ${NOT_A_CONVERSATION}`))
  })
})

describe('assertCalledBeforeExchange() and assertNotCalledBeforeExchange()', () => {
  it('pass by the exchange whose reply recorded the call', () => {
    expect(() => assertCalledBeforeExchange(refunded, 'lookup_order', 3)).not.toThrow()
    expect(() => assertNotCalledBeforeExchange(refunded, 'issue_refund', 2)).not.toThrow()
    expect(() => assertNotCalledBeforeExchange(stuck, 'issue_refund', 4)).not.toThrow()
  })

  it('fails when the tool was first called in a later exchange, showing the exchanges before it', () => {
    expect(failureOf(() => assertCalledBeforeExchange(refunded, 'issue_refund', 2)).message).toBe(
      lines(
        '"issue_refund" was not called before exchange 2: it was first called in exchange 2 (turn 2)',
        '',
        'conversation: exchange 1 of 3',
        '  1 user   “hi, I want my money back”',
        "    agent  “Sure, what's your order number?”  (turn 0)",
        '',
        ...REFUNDED_TURNS,
        '',
        'ASSERTION FAILED: "issue_refund" was not called before exchange 2: it was first called in exchange 2 (turn 2)',
        'PROBABLE CAUSE: issue_refund last returned {"ok":true} (turn 2)',
      ),
    )
  })

  it('fails when the tool was never called, with the name the test probably meant', () => {
    const failure = failureOf(() => assertCalledBeforeExchange(refunded, 'lookup_ordr', 3))
    expect(failure.assertion).toBe('"lookup_ordr" was not called before exchange 3: it was never called')
    expect(failure.message).toContain('PROBABLE CAUSE: no tool named "lookup_ordr" was called; did you mean lookup_order? "lookup_order" was called in turn 1')
  })

  it('fails the negative form naming the exchange and the arguments of the early call', () => {
    expect(failureOf(() => assertNotCalledBeforeExchange(refunded, 'issue_refund', 3)).message).toBe(
      lines(
        '"issue_refund" was called before exchange 3: in exchange 2 (turn 2)',
        '',
        'conversation: exchange 2 of 3',
        '  2 user   “order 42”',
        '    agent  “Refunded $19.99 for order 42.”  (turns 1, 2, 3)',
        '',
        ...REFUNDED_TURNS,
        '',
        'ASSERTION FAILED: "issue_refund" was called before exchange 3: in exchange 2 (turn 2)',
        'PROBABLE CAUSE: the first call was issue_refund({"order_id":"42","amount":19.99}) in turn 2',
        '                issue_refund last returned {"ok":true} (turn 2)',
      ),
    )
  })

  it('rejects exchange 1 (nothing comes before it), a bad tool name, and a run that is not a conversation', () => {
    expect(() => assertCalledBeforeExchange(refunded, 'lookup_order', 1)).toThrow(
      new RangeError('assertCalledBeforeExchange(): n must be a whole number >= 2 (no exchange comes before exchange 1), got 1 (number).'),
    )
    expect(() => assertNotCalledBeforeExchange(refunded, '', 2)).toThrow(
      new TypeError('assertNotCalledBeforeExchange(): tool must be a tool name (a non-empty string), got "" (string).'),
    )
    expect(() => assertCalledBeforeExchange(plainRun, 'lookup_order', 2)).toThrow(new TypeError(`assertCalledBeforeExchange(): ${NOT_A_CONVERSATION}`))
  })
})

describe('the conversation assertions as methods', () => {
  it('are on a loaded trace through assertOn(), passing and failing as the functions do', () => {
    const run = assertOn(refunded)
    run.assertEndedWithGoalMet()
    run.assertEndedWithinExchanges(3)
    run.assertEveryReply(/\w/)
    run.assertCalledBeforeExchange('lookup_order', 3)
    run.assertNotCalledBeforeExchange('issue_refund', 2)
    expect(failureOf(() => assertOn(stuck).assertEndedWithGoalMet()).message).toBe(failureOf(() => assertEndedWithGoalMet(stuck)).message)
  })
})
