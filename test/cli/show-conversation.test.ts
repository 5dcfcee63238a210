import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { longConversation, supportConversation, supportRecord } from '../helpers/conversation-trace.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, T0, traceDirWith } from './run-cli.js'

describe('reagent-flow show, for a run of conversation()', () => {
  const times = { started_at: T0, ended_at: T0 + 1.5 }

  it('prints the conversation as a chat after the header, then the turns each reply produced', () => {
    const cwd = traceDirWith([supportConversation('support', times)])
    const { code, stdout, stderr } = runCli(['show', 'support'], cwd)
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      [
        'support  completed · 5 turns · 2 tool calls · 1.5s',
        '  Conversation · 3 exchanges · goal: Get a refund for order 42 · persona: terse, impatient',
        '    1  user:  hi, I want my money back',
        '       agent: Which order is it?  (turn 0)',
        '    2  user:  order 42',
        '       agent: Refunded $19.99 for order 42.  (turns 1–3)',
        '    3  user:  thanks',
        '       agent: You are welcome!  (turn 4)',
        '    ended by the user after 3 exchanges: goal met ("got the refund")',
        '',
        '  ✓ Turn 0  0µs  gpt-4o',
        '      LLM -> “Which order is it?”',
        '  ✓ Turn 1  0µs  gpt-4o',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"amount":19.99}',
        '  ✓ Turn 2  0µs  gpt-4o',
        '      LLM -> issue_refund({"order_id":"42"})',
        '        ✓ {"ok":true}',
        '  ✓ Turn 3  0µs  gpt-4o',
        '      LLM -> “Refunded $19.99 for order 42.”',
        '  ✓ Turn 4  0µs  gpt-4o',
        '      LLM -> “You are welcome!”',
        '',
        'trace_id  trace-support',
        `file      ${join('.reagent', 'support.trace.json')}`,
        'started   2027-01-15 08:00:00 UTC',
        '',
      ].join('\n'),
    )
  })

  it('says how a conversation stopped short or failed, the transcript kept', () => {
    const stopped = supportConversation(
      'stopped',
      times,
      supportRecord({ ended_by: 'max_turns', goal_met: null, reason: 'reached maxTurns (3)', max_turns: 3 }),
    )
    const failed = supportConversation(
      'failed',
      { ...times, status: 'failed', error: { name: 'Error', message: 'the user model answered nothing' } },
      supportRecord({ ended_by: 'error', goal_met: null, reason: 'Error: the user model answered nothing' }),
    )
    const cwd = traceDirWith([stopped, failed])
    expect(runCli(['show', 'stopped'], cwd).stdout).toContain('       agent: You are welcome!  (turn 4)\n    stopped at maxTurns (3)\n\n  ✓ Turn 0')
    expect(runCli(['show', 'failed'], cwd).stdout).toContain('\n    failed: Error: the user model answered nothing\n\n  ✓ Turn 0')
  })

  it('keeps a long conversation to its first 10 and last 20 exchanges', () => {
    const { stdout } = runCli(['show', 'long'], traceDirWith([longConversation('long', 100, times)]))
    expect(stdout).toContain('\n         agent: answer 10  (turn 9)\n    … 70 exchanges not shown (exchanges 11–80)\n     81  user:  question 81\n')
    expect(stdout).toContain('\n    stopped at maxTurns (100)\n\n  ✓ Turn 0')
  })

  it('prints a run without a conversation as before', () => {
    const { stdout } = runCli(['show', 'plain'], traceDirWith([buildTrace('plain', [{ text: 'hi' }], times)]))
    expect(stdout).toBe(
      [
        'plain  completed · 1 turn · 0 tool calls · 1.5s',
        '  ✓ Turn 0  0µs  gpt-4o',
        '      LLM -> “hi”',
        '',
        'trace_id  trace-plain',
        `file      ${join('.reagent', 'plain.trace.json')}`,
        'started   2027-01-15 08:00:00 UTC',
        '',
      ].join('\n'),
    )
  })

  it('carries the conversation in --json', () => {
    const { code, json } = runJson<{ trace: { conversation: unknown } }>(['show', 'support'], traceDirWith([supportConversation('support', times)]))
    expect(code).toBe(0)
    expect(json.trace.conversation).toEqual(supportRecord())
  })
})
