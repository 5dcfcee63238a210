import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { validateTrace } from '../../src/entries/files.js'
import { supportConversation, supportRecord } from '../helpers/conversation-trace.js'
import { runCli, traceDirWith } from './run-cli.js'

/** The support conversation's trace as JSON, with `conversation` changed by `change`. */
function withConversation(change: (conversation: Record<string, unknown>) => void): Record<string, unknown> {
  const trace = JSON.parse(JSON.stringify(supportConversation())) as Record<string, unknown>
  change(trace.conversation as Record<string, unknown>)
  return trace
}

const messageAt = (conversation: Record<string, unknown>, at: number): Record<string, unknown> => (conversation.messages as Array<Record<string, unknown>>)[at]!

describe('the conversation field of a trace, validated', () => {
  it('accepts a conversation ended by the user, at maxTurns, by stop or by an error, and one with nothing said', () => {
    for (const ending of [
      {},
      { ended_by: 'max_turns' as const, goal_met: null },
      { ended_by: 'stop' as const, goal_met: null },
      { ended_by: 'error' as const, goal_met: null, reason: 'boom' },
      { messages: [], exchanges: 0, goal: null, persona: null, user_trace_id: null, reason: null },
    ]) {
      expect(validateTrace(JSON.parse(JSON.stringify(supportConversation('support', {}, supportRecord(ending))))).conversation).toEqual(supportRecord(ending))
    }
  })

  it('rejects a malformed one, naming the JSON path, what was wanted and the rule', () => {
    const error = (change: (conversation: Record<string, unknown>) => void): string => {
      try {
        validateTrace(withConversation(change), 'support.trace.json')
      } catch (caught) {
        return (caught as Error).message
      }
      throw new Error('the trace was accepted')
    }
    const fix = ' Fix or delete the file, or record it again; the format is described by reagent-flow/schema.json.'
    expect(error((c) => (c.ended_by = 'finished'))).toBe(
      `support.trace.json is not a valid reagent-flow trace: at conversation.ended_by: must be one of "user", "max_turns", "stop", "error" (rule: enum).${fix}`,
    )
    expect(error((c) => delete c.messages)).toBe(
      `support.trace.json is not a valid reagent-flow trace: at conversation: missing required key "messages" (rule: required).${fix}`,
    )
    expect(error((c) => (messageAt(c, 1).content = { text: 'Which order?' }))).toBe(
      `support.trace.json is not a valid reagent-flow trace: at conversation.messages[1].content: must be string (rule: type).${fix}`,
    )
    expect(error((c) => (messageAt(c, 0).exchange = 0))).toBe(
      `support.trace.json is not a valid reagent-flow trace: at conversation.messages[0].exchange: must be >= 1 (rule: minimum).${fix}`,
    )
    expect(error((c) => (messageAt(c, 0).name = 'alice'))).toBe(
      `support.trace.json is not a valid reagent-flow trace: at conversation.messages[0]: unexpected key "name" (a conversation message holds role, content, exchange and turns only) (rule: additionalProperties).${fix}`,
    )
  })

  it('reagent-flow validate accepts a run with a conversation and rejects a malformed one, exit 1', () => {
    const cwd = traceDirWith([supportConversation()])
    writeFileSync(
      join(cwd, '.reagent', 'broken.trace.json'),
      JSON.stringify(
        withConversation((c) => (messageAt(c, 2).role = 'customer')),
        null,
        2,
      ),
    )
    expect(runCli(['validate'], cwd)).toEqual({
      code: 1,
      stdout: [
        `✗ ${join('.reagent', 'broken.trace.json')}: at conversation.messages[2].role: must be one of "user", "assistant" (rule: enum)`,
        '2 files checked: 1 valid, 1 invalid',
        '',
      ].join('\n'),
      stderr: '',
    })
  })
})
