import { describe, expect, it } from 'vitest'
import { formatChatLines } from '../../src/report/chat.js'
import { colors } from '../../src/report/colors.js'
import { describeEnding, describeTurns } from '../../src/report/conversation-words.js'
import { longRecord, supportRecord } from '../helpers/conversation-trace.js'

const plain = colors(false)

describe('a conversation as a chat (reagent-flow show)', () => {
  it('numbers each exchange, labels user and agent, and names the turns each reply produced', () => {
    expect(formatChatLines(supportRecord(), plain)).toEqual([
      '  Conversation · 3 exchanges · goal: Get a refund for order 42 · persona: terse, impatient',
      '    1  user:  hi, I want my money back',
      '       agent: Which order is it?  (turn 0)',
      '    2  user:  order 42',
      '       agent: Refunded $19.99 for order 42.  (turns 1–3)',
      '    3  user:  thanks',
      '       agent: You are welcome!  (turn 4)',
      '    ended by the user after 3 exchanges: goal met ("got the refund")',
    ])
  })

  it('cuts a long message to one line as show cuts the turns, escaping its newlines', () => {
    const long = `${'a'.repeat(120)}\nsecond line`
    const record = supportRecord({ messages: [{ role: 'user', content: long, exchange: 1 }], exchanges: 1, goal: null, persona: null })
    expect(formatChatLines(record, plain).slice(0, 2)).toEqual(['  Conversation · 1 exchange', `    1  user:  ${'a'.repeat(99)}…`])
    const withNewline = supportRecord({ messages: [{ role: 'user', content: 'one\ntwo "three"', exchange: 1 }] })
    expect(formatChatLines(withNewline, plain)[1]).toBe('    1  user:  one\\ntwo \\"three\\"')
  })

  it('shows the first 10 and the last 20 exchanges of a long conversation, saying how many are hidden', () => {
    const lines = formatChatLines(longRecord(2500), plain)
    expect(lines).toHaveLength(1 + 30 * 2 + 1 + 1)
    expect(lines.slice(19, 23)).toEqual([
      '      10  user:  question 10',
      '          agent: answer 10  (turn 9)',
      '    … 2470 exchanges not shown (exchanges 11–2480)',
      '    2481  user:  question 2481',
    ])
    expect(lines.at(-1)).toBe('    stopped at maxTurns (2500)')
  })

  it('says so when nothing was said, and colours the ending: green when the goal was met, red when it failed', () => {
    const record = supportRecord({ messages: [], exchanges: 0, ended_by: 'error', goal_met: null, reason: 'Error: the user model answered nothing' })
    expect(formatChatLines(record, plain).slice(1)).toEqual(['    (nothing was said)', '    failed: Error: the user model answered nothing'])
    const c = colors(true)
    expect(formatChatLines(record, c).at(-1)).toBe(`    ${c.red('failed: Error: the user model answered nothing')}`)
    expect(formatChatLines(supportRecord(), c).at(-1)).toBe(`    ${c.green('ended by the user after 3 exchanges: goal met ("got the refund")')}`)
  })
})

describe('the words for how a conversation ended', () => {
  it('says who ended it, after how many exchanges, whether the goal was met, and why', () => {
    const ending = (overrides: Parameters<typeof supportRecord>[0]) => describeEnding(supportRecord(overrides))
    expect(ending({})).toEqual({ text: 'ended by the user after 3 exchanges: goal met ("got the refund")', tone: 'met' })
    expect(ending({ goal_met: false, reason: 'gave up', exchanges: 1 })).toEqual({
      text: 'ended by the user after 1 exchange: goal not met ("gave up")',
      tone: 'short',
    })
    expect(ending({ goal_met: null, reason: null })).toEqual({ text: 'ended by the user after 3 exchanges', tone: 'plain' })
    expect(ending({ ended_by: 'max_turns', goal_met: null, max_turns: 8 })).toEqual({ text: 'stopped at maxTurns (8)', tone: 'short' })
    expect(ending({ ended_by: 'stop', goal_met: null, reason: 'said "refund"' })).toEqual({
      text: `ended by the test's stop function after 3 exchanges ("said \\"refund\\"")`,
      tone: 'plain',
    })
    expect(ending({ ended_by: 'error', goal_met: null, reason: 'TypeError: the reply of exchange 2 is not a string' })).toEqual({
      text: 'failed: TypeError: the reply of exchange 2 is not a string',
      tone: 'failed',
    })
    expect(ending({ ended_by: 'error', goal_met: null, reason: null })).toEqual({ text: 'failed', tone: 'failed' })
  })

  it('names turns one by one or as ranges', () => {
    expect([describeTurns([2]), describeTurns([2, 3, 4]), describeTurns([4, 1, 3]), describeTurns([]), describeTurns([0, 0])]).toEqual([
      'turn 2',
      'turns 2–4',
      'turns 1, 3–4',
      'no turn',
      'turn 0',
    ])
  })
})
