import { describe, expect, it } from 'vitest'
import type { SessionFigures } from '../../src/vitest/session-figures.js'
import { runsOfTest } from '../../src/vitest/run-results.js'

const ROOT = '/project'

function session(name: string, fields: Partial<SessionFigures> = {}): SessionFigures {
  return {
    trace_id: name,
    parent_trace_id: null,
    name,
    status: 'completed',
    path: `${ROOT}/.reagent/test/a.test.ts/${name.replaceAll(' ', '_')}.trace.json`,
    tokens: 100,
    usd: 0.001,
    turns: 2,
    tool_calls: 1,
    duration_ms: 5,
    ...fields,
  }
}

describe('the runs of a test in the results file', () => {
  it("a sub-agent's session is part of its parent's run: turns, tool calls, tokens and dollars add up, the parent's status and trace stay", () => {
    const child = session('billing', { parent_trace_id: 'refund', status: 'failed' })
    expect(runsOfTest([child, session('refund')], ROOT)).toEqual([
      {
        name: 'refund',
        status: 'completed',
        trace: '.reagent/test/a.test.ts/refund.trace.json',
        tokens: 200,
        usd: 0.002,
        turns: 4,
        tool_calls: 2,
        duration_ms: 5,
      },
    ])
  })

  it("a simulated user's and a judge's sessions count by role, never as the agent's turns; a judge's own sub-session is the judge's", () => {
    const sessions = [
      session('support'),
      session('support > user', { tokens: 40, usd: null, turns: 7 }),
      session('support > judge', { tokens: 1000, usd: 0.01 }),
      session('rubric', { parent_trace_id: 'support > judge', tokens: 5, usd: 0.0001 }),
    ]
    expect(runsOfTest(sessions, ROOT)).toEqual([
      {
        name: 'support',
        status: 'completed',
        trace: '.reagent/test/a.test.ts/support.trace.json',
        tokens: 1145,
        usd: 0.0111,
        by_role: { agent: { tokens: 100, usd: 0.001 }, user: { tokens: 40, usd: null }, judge: { tokens: 1005, usd: 0.0101 } },
        turns: 2,
        tool_calls: 1,
        duration_ms: 5,
      },
    ])
  })

  it("helper runs opened as the run's children (user, judge, tools) count by role, and so do the sessions opened inside them", () => {
    const sessions = [
      session('support > user', { parent_trace_id: 'support', tokens: 40, usd: 0.0004 }),
      session('support > tools', { parent_trace_id: 'support', tokens: 60, usd: 0.0006 }),
      session('billing', { parent_trace_id: 'support', tokens: 10, usd: 0.0001 }),
      session('support'),
      session('rubric', { parent_trace_id: 'support > judge', tokens: 5, usd: 0.0001 }),
      session('support > judge', { parent_trace_id: 'support', tokens: 1000, usd: 0.01 }),
    ]
    expect(runsOfTest(sessions, ROOT)).toEqual([
      {
        name: 'support',
        status: 'completed',
        trace: '.reagent/test/a.test.ts/support.trace.json',
        tokens: 1215,
        usd: 0.0122,
        by_role: {
          agent: { tokens: 110, usd: 0.0011 },
          user: { tokens: 40, usd: 0.0004 },
          judge: { tokens: 1005, usd: 0.0101 },
          tools: { tokens: 60, usd: 0.0006 },
        },
        turns: 4,
        tool_calls: 2,
        duration_ms: 5,
      },
    ])
  })

  it('each run of a run set is a run, and a judge belongs to the latest run of its name; an unwritten trace and unmeasured usage are null', () => {
    const runs = runsOfTest(
      [session('refund #1'), session('refund #2', { path: null, tokens: null, usd: null }), session('refund #2 > goal', { tokens: 10, usd: null })],
      ROOT,
    )
    expect(runs.map((run) => [run.name, run.trace, run.tokens, run.usd, run.by_role])).toEqual([
      ['refund #1', '.reagent/test/a.test.ts/refund_#1.trace.json', 100, 0.001, undefined],
      ['refund #2', null, 10, null, { agent: { tokens: null, usd: null }, judge: { tokens: 10, usd: null } }],
    ])
  })

  it('a session named like a judge of no run of the test is a run of its own', () => {
    expect(runsOfTest([session('other > goal')], ROOT).map((run) => run.name)).toEqual(['other > goal'])
  })
})
