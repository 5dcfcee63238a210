import { dirname, join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import '../../src/entries/vitest.js'
import { loadTrace, session, type Session } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'

function refundAgent(s: Session): string {
  s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' }, callId: 'c1' }], model: 'gpt-4o' })
  s.logToolResult('issue_refund', { callId: 'c1', result: { refund_id: 'r_42' } })
  s.logLlmCall({ responseText: 'Refunded order 42.', model: 'gpt-4o' })
  return 'Refunded order 42.'
}

const unsaved = (): Promise<Session<string>> => session('refund-agent', { save: false, metadata: { goal: 'Refund order 42' } }, refundAgent)

const TURNS = [
  '  ✓ Turn 0  <t>  gpt-4o',
  '      LLM -> issue_refund({"order_id":"42"})',
  '        ✓ {"refund_id":"r_42"}',
  '  ✓ Turn 1  <t>  gpt-4o',
  '      LLM -> “Refunded order 42.”',
]

/** Durations change from run to run; the rest of an agent stack trace does not. */
const withoutTimings = (text: string): string => text.replace(/( {2}|· )\d+(\.\d+)?(µs|ms|s)\b/g, '$1<t>')

async function failureOf(run: () => Promise<unknown>): Promise<string> {
  vi.stubEnv('NO_COLOR', '1')
  try {
    await run()
  } catch (error) {
    return withoutTimings((error as Error).message)
  } finally {
    vi.unstubAllEnvs()
  }
  throw new Error('the expectation passed, but it was expected to fail')
}

describe('toReachGoal()', () => {
  it('passes when the judge, sync or async, says the goal was reached, and records the verdict as the grade', async () => {
    const s = await unsaved()
    await expect(s).toReachGoal(({ answer }) => answer === 'Refunded order 42.')
    expect(s.trace.grade).toMatchObject({ grade: 'pass', source: 'goal judge', reason: null })
    await expect(s).toReachGoal(async ({ transcript }) => ({ reached: transcript.includes('issue_refund'), reason: 'issue_refund ran' }), { source: 'rules' })
    expect(s.trace.grade).toMatchObject({ grade: 'pass', source: 'rules', reason: 'issue_refund ran' })
  })

  it("fails with the judge's reason, where to find the judge's run, and the agent stack trace", async () => {
    const s = await unsaved()
    const message = await failureOf(() => expect(s).toReachGoal(() => ({ reached: false, reason: 'the customer was not told when the money arrives' })))
    const headline = 'The agent did not reach its goal "Refund order 42": the customer was not told when the money arrives'
    expect(message).toBe(
      [
        headline,
        '',
        'refund-agent  completed · 2 turns · 1 tool call · <t>',
        ...TURNS,
        '',
        `ASSERTION FAILED: ${headline}`,
        `PROBABLE CAUSE: judged by "goal judge" in its own run ${s.trace.grade!.ref}`,
      ].join('\n'),
    )
    expect(s.trace.grade?.grade).toBe('fail')
  })

  it('with .not, fails when the judge says the goal was reached, and passes when it was not', async () => {
    const s = await unsaved()
    const message = await failureOf(() =>
      expect(s).not.toReachGoal(() => ({ reached: true, reason: 'order 42 was refunded' }), { goal: 'Refuse refunds over $10' }),
    )
    expect(message.split('\n')[0]).toBe('expected the agent not to reach its goal "Refuse refunds over $10", but the judge said it did: order 42 was refunded')
    await expect(s).not.toReachGoal(() => false)
    // The grade is the judge's verdict on the goal, whatever the test expected.
    expect(s.trace.grade?.grade).toBe('fail')
  })

  it("puts the judge's run beside the judged run, as its child keyed with ` > judge`", async () => {
    const traceDir = tempDir()
    const s = await session('refund-agent', { traceDir, metadata: { goal: 'Refund order 42' } }, refundAgent)
    await expect(s).toReachGoal(() => true)
    expect(dirname(s.path!)).toBe(join(traceDir, 'test', 'vitest', 'goal-matcher.test.ts'))
    const judge = loadTrace(s.path!.replace(/\.trace\.json$/, '___judge.trace.json'))
    expect([judge.name, judge.test_key]).toEqual(['refund-agent > judge', `${s.trace.test_key} > judge`])
    expect([judge.parent_trace_id, judge.metadata['reagent_role']]).toEqual([s.traceId, 'judge'])
    expect(loadTrace(s.path!).grade?.ref).toBe(judge.trace_id)
  })

  it('rejects a value that is not a run in one line', async () => {
    // @ts-expect-error a string is not a run
    await expect(expect('Refunded order 42.').toReachGoal(() => true)).rejects.toThrow(
      new TypeError(
        'toReachGoal(): the value given to expect() must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got "Refunded order 42." (string). ' +
          'Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.',
      ),
    )
  })
})
