import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import {
  assertCalledBeforeExchange,
  assertEndedWithGoalMet,
  assertEndedWithinExchanges,
  assertEveryReply,
  assertNotCalledBeforeExchange,
  loadTrace,
  session,
} from '../../src/entries/index.js'
import { buildConversation, refunded, stuck } from '../helpers/conversation-traces.js'
import { tempDir } from '../helpers/temp-dir.js'
import { failureOf } from '../helpers/trace-builder.js'
import { matcherFailure } from './helpers.js'

const lines = (...text: string[]): string => text.join('\n')

/** What every `.not` failure about `refunded` draws below its headline. */
function refundedBelow(headline: string, cause: string): string {
  return lines(
    headline,
    '',
    'conversation: exchanges 1-3 of 3',
    '  1 user   “hi, I want my money back”',
    "    agent  “Sure, what's your order number?”  (turn 0)",
    '  2 user   “order 42”',
    '    agent  “Refunded $19.99 for order 42.”  (turns 1, 2, 3)',
    '  3 user   “thanks”',
    "    agent  “You're welcome!”  (turn 4)",
    '',
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
    '',
    `ASSERTION FAILED: ${headline}`,
    `PROBABLE CAUSE: ${cause}`,
  )
}

const NO_TRACE_CAUSE = 'nothing in the trace points to one: no tool error, no failed LLM call'

describe('toEndWithGoalMet()', () => {
  it('passes on a conversation the user ended with its goal met, also read back from its trace file', () => {
    const path = join(tempDir(), 'support.trace.json')
    writeFileSync(path, JSON.stringify(refunded))
    expect(refunded).toEndWithGoalMet()
    expect(loadTrace(path)).toEndWithGoalMet()
    expect(stuck).not.toEndWithGoalMet()
  })

  it("fails with assertEndedWithGoalMet()'s message: how it ended, the last exchanges, the agent stack trace", () => {
    expect(matcherFailure(() => expect(stuck).toEndWithGoalMet()).message).toBe(failureOf(() => assertEndedWithGoalMet(stuck)).message)
  })

  it('with .not, fails saying the user reached its goal', () => {
    expect(matcherFailure(() => expect(refunded).not.toEndWithGoalMet()).message).toBe(
      refundedBelow(
        "expected the conversation not to end with the user's goal met, but the user ended it after 3 exchanges with its goal met: “the refund was issued”",
        NO_TRACE_CAUSE,
      ),
    )
  })

  it('rejects a run that is not a conversation, both ways, saying how to make one', async () => {
    const s = await session('refund-agent', { save: false }, (s) => {
      s.logLlmCall({ responseText: 'Refunded.' })
    })
    const error = new TypeError(
      'toEndWithGoalMet(): the value given to expect() is a run that is not a conversation ("refund-agent" has no conversation on its trace). ' +
        'Run the agent with conversation(name, { user, maxTurns }, agent) from reagent-flow/simulate and pass the Session it resolves to (or a trace it wrote).',
    )
    expect(() => expect(s).toEndWithGoalMet()).toThrow(error)
    expect(() => expect(s).not.toEndWithGoalMet()).toThrow(error)
    // @ts-expect-error a string is not a run
    expect(() => expect('Refunded.').toEndWithGoalMet()).toThrow(/^toEndWithGoalMet\(\): the value given to expect\(\) must be a Session/)
  })
})

describe('toEndWithinExchanges()', () => {
  it('passes when the conversation ended after at most n exchanges; .not when it took more or never ended', () => {
    expect(refunded).toEndWithinExchanges(3)
    expect(refunded).not.toEndWithinExchanges(2)
    expect(stuck).not.toEndWithinExchanges(10)
  })

  it("fails with assertEndedWithinExchanges()'s message", () => {
    expect(matcherFailure(() => expect(refunded).toEndWithinExchanges(2)).message).toBe(failureOf(() => assertEndedWithinExchanges(refunded, 2)).message)
  })

  it('with .not, fails saying when it ended', () => {
    expect(matcherFailure(() => expect(refunded).not.toEndWithinExchanges(4)).message).toBe(
      refundedBelow(
        'expected the conversation not to end within 4 exchanges, but the user ended it after 3 exchanges with its goal met: “the refund was issued”',
        NO_TRACE_CAUSE,
      ),
    )
  })

  it('rejects n that is not a whole number >= 1, named as the matcher', () => {
    expect(() => expect(refunded).toEndWithinExchanges(0)).toThrow(
      new RangeError('toEndWithinExchanges(): n must be a whole number >= 1 (exchanges count from 1), got 0 (number).'),
    )
  })
})

describe('toSatisfyEveryReply()', () => {
  it('passes when every reply passes a function, a RegExp or an asymmetric matcher; .not when one fails', () => {
    expect(refunded).toSatisfyEveryReply((reply, { exchange }) => exchange > 1 || reply.endsWith('?'))
    expect(refunded).toSatisfyEveryReply(/^[A-Z]/)
    expect(refunded).toSatisfyEveryReply(expect.not.stringContaining('@'))
    expect(refunded).not.toSatisfyEveryReply(/order/)
    expect(refunded).not.toSatisfyEveryReply((reply) => expect(reply).not.toContain('$'))
  })

  it("fails with assertEveryReply()'s message: the exchange, the reply quoted, what the check threw", () => {
    const check = (reply: string): void => {
      expect(reply).not.toContain('$')
    }
    const failure = matcherFailure(() => expect(refunded).toSatisfyEveryReply(check))
    expect(failure.message).toBe(failureOf(() => assertEveryReply(refunded, check)).message)
    expect(failure.message.split('\n')[0]).toBe("the agent's reply in exchange 2 failed the check check: “Refunded $19.99 for order 42.”")
    expect(failure.message).toContain("PROBABLE CAUSE: the check threw AssertionError: expected 'Refunded $19.99 for order 42.' not to contain '$'")
  })

  it('with .not, fails saying every reply passed', () => {
    expect(matcherFailure(() => expect(refunded).not.toSatisfyEveryReply(/\w/)).message.split('\n')[0]).toBe(
      'expected some reply of the agent not to match /\\w/, but all 3 replies did',
    )
    expect(matcherFailure(() => expect(refunded).not.toSatisfyEveryReply(() => true)).message).toBe(
      refundedBelow('expected some reply of the agent to fail the check, but all 3 replies passed it', NO_TRACE_CAUSE),
    )
  })

  it('fails on a conversation without a reply, also with .not', () => {
    const unanswered = buildConversation('support', [{ user: 'hi' }], { ended_by: 'error', goal_met: null, reason: 'Error: the agent failed' })
    const headline = 'the agent gave no reply to check: it failed in exchange 1: Error: the agent failed'
    expect(matcherFailure(() => expect(unanswered).toSatisfyEveryReply(/./)).message.split('\n')[0]).toBe(headline)
    expect(matcherFailure(() => expect(unanswered).not.toSatisfyEveryReply(/./)).message.split('\n')[0]).toBe(headline)
  })

  it('rejects a check of another kind, and one that returns a promise, named as the matcher', () => {
    expect(() => expect(refunded).toSatisfyEveryReply(42 as never)).toThrow(
      new TypeError(
        "toSatisfyEveryReply(): check must be a function (reply, { exchange, message, turns }) that throws or returns false to fail, a RegExp or an asymmetric matcher (expect.stringContaining('order')), got 42 (number).",
      ),
    )
    expect(() => expect(refunded).toSatisfyEveryReply(async () => true)).toThrow(
      new TypeError(
        'toSatisfyEveryReply(): check returned a Promise for the reply of exchange 1: replies are checked synchronously. To await something for each reply, loop over trace.conversation.messages.',
      ),
    )
  })
})

describe('toHaveCalledToolBeforeExchange()', () => {
  it('passes when the tool was called in an exchange before n; .not when it was not', () => {
    expect(refunded).toHaveCalledToolBeforeExchange('lookup_order', 3)
    expect(refunded).not.toHaveCalledToolBeforeExchange('issue_refund', 2)
    expect(stuck).not.toHaveCalledToolBeforeExchange('lookup_order', 4)
  })

  it("fails with assertCalledBeforeExchange()'s message, and with .not with assertNotCalledBeforeExchange()'s", () => {
    expect(matcherFailure(() => expect(refunded).toHaveCalledToolBeforeExchange('issue_refund', 2)).message).toBe(
      failureOf(() => assertCalledBeforeExchange(refunded, 'issue_refund', 2)).message,
    )
    expect(matcherFailure(() => expect(refunded).not.toHaveCalledToolBeforeExchange('issue_refund', 3)).message).toBe(
      failureOf(() => assertNotCalledBeforeExchange(refunded, 'issue_refund', 3)).message,
    )
  })

  it('rejects exchange 1 and a bad tool name, named as the matcher', () => {
    expect(() => expect(refunded).toHaveCalledToolBeforeExchange('lookup_order', 1)).toThrow(
      new RangeError('toHaveCalledToolBeforeExchange(): n must be a whole number >= 2 (no exchange comes before exchange 1), got 1 (number).'),
    )
    expect(() => expect(refunded).toHaveCalledToolBeforeExchange(7 as never, 2)).toThrow(
      new TypeError('toHaveCalledToolBeforeExchange(): tool must be a tool name (a non-empty string), got 7 (number).'),
    )
  })
})
