import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matchGolden, renderGolden } from '../../src/golden/index.js'
import type { Trace } from '../../src/trace/types.js'
import { supportConversation, supportRecord } from '../helpers/conversation-trace.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The support conversation as a second recording gives it: new ids for the run, the user's run and the calls, other times. */
function recordedAgain(): Trace {
  const trace = supportConversation(
    'support',
    { trace_id: 'trace-second', started_at: 1_900_000_000, ended_at: 1_900_000_002 },
    {
      ...supportRecord(),
      user_trace_id: 'trace-second > user',
    },
  )
  for (const turn of trace.turns) {
    turn.duration_ms = 12
    turn.llm_call.timestamp += 100_000_000
    for (const call of turn.llm_call.tool_calls) call.call_id = `call_provider_${call.call_id}`
    for (const result of turn.tool_results) result.call_id = `call_provider_${result.call_id}`
  }
  return trace
}

describe('a conversation in a golden', () => {
  it('is kept, who said what being behaviour, with the user run id as "golden-user"', () => {
    const { trace, text } = renderGolden(supportConversation())
    expect(trace.conversation).toEqual({ ...supportRecord(), user_trace_id: 'golden-user' })
    expect(JSON.parse(text).conversation.user_trace_id).toBe('golden-user')
  })

  it('keeps a scripted user (no user run) as null', () => {
    const scripted = supportConversation('support', {}, supportRecord({ user_trace_id: null }))
    expect(renderGolden(scripted).trace.conversation?.user_trace_id).toBeNull()
  })

  it('is written with the same bytes when the same conversation is recorded twice', () => {
    const traceDir = tempDir()
    const first = matchGolden(supportConversation(), { traceDir, update: 'all' })
    const bytes = readFileSync(join(traceDir, 'golden', 'support.trace.json'), 'utf8')
    const second = matchGolden(recordedAgain(), { traceDir, update: 'all' })
    expect([first.outcome, second.outcome]).toEqual(['written', 'unchanged'])
    expect(readFileSync(join(traceDir, 'golden', 'support.trace.json'), 'utf8')).toBe(bytes)
    expect(renderGolden(recordedAgain()).text).toBe(bytes)
  })

  it('changes when the user said something else', () => {
    const other = supportConversation(
      'support',
      {},
      {
        ...supportRecord(),
        messages: supportRecord().messages.map((m) => (m.content === 'order 42' ? { ...m, content: 'order 43' } : m)),
      },
    )
    expect(renderGolden(other).text).not.toBe(renderGolden(supportConversation()).text)
  })
})
