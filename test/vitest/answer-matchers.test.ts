import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { matcherFailure, refund, REFUND_TURNS } from './helpers.js'

const CAUSE = 'PROBABLE CAUSE: the agent called lookup_order (turn 0), issue_refund (turn 1), and answered in turn 2: “Refunded.”'

/** The message of a failure about `refund`, whose headline is `headline`. */
const aboutRefund = (headline: string): string => [headline, '', ...REFUND_TURNS, '', `ASSERTION FAILED: ${headline}`, CAUSE].join('\n')

describe('toHaveFinalAnswer()', () => {
  it('passes when the last text answer is the string, matches the RegExp, or satisfies the asymmetric matcher', () => {
    expect(refund).toHaveFinalAnswer('Refunded.')
    expect(refund).toHaveFinalAnswer(/^refunded\.$/i)
    expect(refund).toHaveFinalAnswer(expect.stringContaining('fund'))
    expect(refund).not.toHaveFinalAnswer('Refunded')
    expect(refund).not.toHaveFinalAnswer(/sorry/)
  })

  it('reads the last turn that answered in text, not the last turn', () => {
    const looked = buildTrace('answer-then-tool', [{ text: 'Looking it up.' }, { calls: [{ name: 'log_event', args: {}, result: null }] }])
    expect(looked).toHaveFinalAnswer('Looking it up.')
  })

  it('fails with the answer it got, the agent stack trace, and the two texts for vitest to diff', () => {
    const failure = matcherFailure(() => expect(refund).toHaveFinalAnswer('Refund done.'))
    expect(failure.message).toBe(aboutRefund('expected the final answer to be "Refund done.", but it was "Refunded."'))
    expect([failure.actual, failure.expected]).toEqual(['Refunded.', 'Refund done.'])
  })

  it('fails for a RegExp or a matcher that does not match, naming it as vitest prints it', () => {
    const regex = matcherFailure(() => expect(refund).toHaveFinalAnswer(/sorry/i))
    expect(regex.message).toBe(aboutRefund('expected the final answer to match /sorry/i, but it was "Refunded."'))
    expect(regex.actual).toBeUndefined()
    const matcher = matcherFailure(() => expect(refund).toHaveFinalAnswer(expect.stringContaining('sorry')))
    expect(matcher.message.split('\n')[0]).toBe('expected the final answer to match StringContaining "sorry", but it was "Refunded."')
  })

  it('with .not, fails saying what the answer was', () => {
    expect(matcherFailure(() => expect(refund).not.toHaveFinalAnswer('Refunded.')).message).toBe(
      aboutRefund('expected the final answer not to be "Refunded.", but it was "Refunded."'),
    )
    expect(matcherFailure(() => expect(refund).not.toHaveFinalAnswer(/fund/)).message.split('\n')[0]).toBe(
      'expected the final answer not to match /fund/, but it was "Refunded."',
    )
  })

  it('fails when the agent never answered in text, and then .not passes', () => {
    const silent = buildTrace('silent-agent', [{ calls: [{ name: 'notify', args: { to: 'ops' }, result: 'sent' }] }])
    expect(matcherFailure(() => expect(silent).toHaveFinalAnswer(expect.any(String))).message).toBe(
      [
        'expected the final answer to match Any<String>, but the agent gave no text answer',
        '',
        'silent-agent  completed · 1 turn · 1 tool call · 1.5s',
        '  ✓ Turn 0  0µs  gpt-4o',
        '      LLM -> notify({"to":"ops"})',
        '        ✓ "sent"',
        '',
        'ASSERTION FAILED: expected the final answer to match Any<String>, but the agent gave no text answer',
        'PROBABLE CAUSE: the agent called notify (turn 0)',
      ].join('\n'),
    )
    expect(silent).not.toHaveFinalAnswer('sent')
  })

  it('shows a long answer cut on the first line, and whole in the diff', () => {
    const long = 'Refunded. '.repeat(40)
    const failure = matcherFailure(() => expect(buildTrace('talkative', [{ text: long }])).toHaveFinalAnswer('Refunded.'))
    expect(failure.message.split('\n')[0]).toBe(`expected the final answer to be "Refunded.", but it was "${long.slice(0, 199)}…"`)
    expect(failure.actual).toBe(long)
  })

  it('gives the same answer every time for a global RegExp (its lastIndex is not used)', () => {
    const refunded = /Refunded/g
    expect(refund).toHaveFinalAnswer(refunded)
    expect(refund).toHaveFinalAnswer(refunded)
    expect(refunded.lastIndex).toBe(0)
  })

  it('takes any object with an asymmetricMatch method, as jest-style matcher libraries make them', () => {
    const caseless = { asymmetricMatch: (actual: unknown) => typeof actual === 'string' && actual.toLowerCase() === 'refunded.', toString: () => 'Caseless' }
    expect(refund).toHaveFinalAnswer(caseless)
  })

  it('rejects an expectation that is not a string, a RegExp or a matcher, in one line', () => {
    expect(() => expect(refund).toHaveFinalAnswer(42 as never)).toThrow(
      new TypeError("toHaveFinalAnswer(): expected must be a string, a RegExp or an asymmetric matcher (expect.stringContaining('refund')), got 42 (number)."),
    )
  })
})
