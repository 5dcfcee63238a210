import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Trace } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, T0, traceDirWith } from './run-cli.js'

const GOLDEN = join('.reagent', 'golden', 'refund-agent.trace.json')
const RUN = join('.reagent', 'refund-agent.trace.json')

/** refund-agent recorded again: an extra search first, and a different amount looked up. */
function changedRefund(): Trace {
  return buildTrace(
    'refund-agent',
    [
      { calls: [{ name: 'search', args: { q: 'order 42' }, result: ['order 42'] }] },
      { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 25 } }] },
      { calls: [{ name: 'issue_refund', args: { order_id: '42' }, result: { ok: true } }] },
      { text: 'Refunded $19.99 for order 42.' },
    ],
    { trace_id: 'trace-refund-agent-2', started_at: T0 + 3600, ended_at: T0 + 3602 },
  )
}

/** A directory whose refund-agent run has been approved, then recorded again as `rerun`. */
function approvedThenRerun(rerun: Trace): string {
  const cwd = traceDirWith(sampleRuns())
  expect(runCli(['approve', 'refund-agent'], cwd).code).toBe(0)
  saveTrace(rerun, { traceDir: join(cwd, '.reagent') })
  return cwd
}

describe('reagent-flow diff', () => {
  it('exits 0 when the latest run matches its golden, ids and times apart', () => {
    const rerun = { ...sampleRuns()[0]!, trace_id: 'trace-other', started_at: T0 + 99, ended_at: T0 + 100 }
    expect(runCli(['diff', 'refund-agent'], approvedThenRerun(rerun))).toEqual({
      code: 0,
      stdout: `- expected  ${GOLDEN}\n+ actual    ${RUN}\n\nNo differences (strict) · expected: 3 turns · actual: 3 turns\n`,
      stderr: '',
    })
  })

  it('prints the formatted diff and exits 1 when the run differs from its golden', () => {
    const { code, stdout } = runCli(['diff', 'refund-agent'], approvedThenRerun(changedRefund()))
    expect(code).toBe(1)
    expect(stdout).toBe(
      [
        `- expected  ${GOLDEN}`,
        `+ actual    ${RUN}`,
        '',
        '2 differences (strict) · - expected: 3 turns · + actual: 4 turns',
        '',
        '+ Turn 0 (actual)',
        '+   search({"q":"order 42"})',
        'Turn 0 (expected) ↔ Turn 1 (actual)',
        '  ~ lookup_order',
        '      result.amount: 19.99 → 25',
        '',
      ].join('\n'),
    )
  })

  it('takes --mode, --args and --ignore as diffTraces does', () => {
    const cwd = approvedThenRerun(changedRefund())
    expect(runCli(['diff', 'refund-agent', '--mode', 'superset'], cwd).stdout).toContain('\n1 difference (superset) · ')
    expect(runCli(['diff', 'refund-agent', '--mode', 'superset', '--ignore', 'results'], cwd).code).toBe(0)
    expect(runCli(['diff', 'refund-agent', '--mode', 'superset', '--ignore', 'errors,lookup_order.order_id', '--ignore', 'results'], cwd).code).toBe(0)
    expect(runCli(['diff', 'refund-agent', '--args', 'ignore'], cwd).code).toBe(1)
    expect(runCli(['diff', 'refund-agent', '--mode', 'loose'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow diff: --mode must be one of strict, unordered, subset, superset; got "loose"\n',
    })
  })

  it('compares two trace files, a Python-written one included, the first as expected', () => {
    const cwd = traceDirWith(sampleRuns(), { python: true })
    const same = runCli(['diff', join('.reagent', 'planner.trace.json'), 'planner'], cwd)
    expect(same.code).toBe(0)
    const { code, stdout } = runCli(['diff', 'trace-billing-agent', 'billing-agent'], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain('No differences (strict) · expected: 2 turns · actual: 2 turns')
    const other = runCli(['diff', 'planner', 'researcher'], cwd)
    expect(other.code).toBe(1)
    expect(other.stdout).toContain(`- expected  ${join('.reagent', 'planner.trace.json')}\n+ actual    ${join('.reagent', 'researcher.trace.json')}\n`)
  })

  it('prints { expected, actual, diff } with --json', () => {
    const { code, json } = runJson<{ expected: string; actual: string; diff: { equal: boolean; mode: string; changes: unknown[] } }>(
      ['diff', 'refund-agent'],
      approvedThenRerun(changedRefund()),
    )
    expect(code).toBe(1)
    expect([json.expected, json.actual, json.diff.equal, json.diff.mode]).toEqual([GOLDEN, RUN, false, 'strict'])
    expect(json.diff.changes).toHaveLength(2)
    expect(json.diff.changes[0]).toMatchObject({ kind: 'added', subject: 'turn', turn: { expected: null, actual: 0 }, path: 'turns[0]' })
    expect(json.diff.changes[1]).toMatchObject({
      kind: 'changed',
      subject: 'result',
      tool: 'lookup_order',
      path: 'turns[1].tool_results[0].result.amount',
      expected: 19.99,
      actual: 25,
    })
  })

  it('exits 2 naming the golden it looked for when there is none', () => {
    expect(runCli(['diff', 'search-agent'], traceDirWith(sampleRuns()))).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow diff: No trace file at ${join('.reagent', 'golden', 'search-agent.trace.json')}. "search-agent" has no golden baseline yet: review the run, then reagent-flow approve .reagent/search-agent.trace.json.\n`,
    })
  })
})

describe('reagent-flow approve, after a change', () => {
  it('prints what changed against the previous golden', () => {
    const cwd = approvedThenRerun(changedRefund())
    expect(runCli(['approve', 'refund-agent'], cwd).stdout).toBe(
      [
        `updated    ${GOLDEN}`,
        '  2 differences (strict) · - expected: 3 turns · + actual: 4 turns',
        '',
        '  + Turn 0 (actual)',
        '  +   search({"q":"order 42"})',
        '  Turn 0 (expected) ↔ Turn 1 (actual)',
        '    ~ lookup_order',
        '        result.amount: 19.99 → 25',
        '1 golden: 0 created, 1 updated, 0 unchanged',
        '',
      ].join('\n'),
    )
    expect(runCli(['diff', 'refund-agent'], cwd).code).toBe(0)
  })

  it('says when only fields the diff does not compare changed', () => {
    const rerun = {
      ...sampleRuns()[0]!,
      turns: sampleRuns()[0]!.turns.map((turn) => ({ ...turn, llm_call: { ...turn.llm_call, token_usage: { input_tokens: 7, output_tokens: 7 } } })),
    }
    expect(runCli(['approve', 'refund-agent'], approvedThenRerun(rerun)).stdout).toBe(
      `updated    ${GOLDEN}\n  tool calls, results, answers, models and system prompts are the same; other recorded fields changed (tokens, messages, metadata)\n1 golden: 0 created, 1 updated, 0 unchanged\n`,
    )
  })

  it('says what it recorded into a golden that predates comparing models', () => {
    const withoutModel = (trace: Trace): Trace => ({ ...trace, turns: trace.turns.map((turn) => ({ ...turn, llm_call: { ...turn.llm_call, model: null } })) })
    const cwd = traceDirWith([withoutModel(sampleRuns()[0]!), ...sampleRuns().slice(1)])
    expect(runCli(['approve', 'refund-agent'], cwd).code).toBe(0)
    saveTrace(sampleRuns()[0]!, { traceDir: join(cwd, '.reagent') })
    expect(runCli(['diff', 'refund-agent'], cwd).code).toBe(0)
    expect(runCli(['approve', 'refund-agent'], cwd).stdout).toBe(
      `updated    ${GOLDEN}\n  model recorded: the golden predates comparing them; they are compared from now on\n1 golden: 0 created, 1 updated, 0 unchanged\n`,
    )
  })

  it('prints a changed model as a difference, once for the run', () => {
    const rerun = { ...sampleRuns()[0]!, turns: sampleRuns()[0]!.turns.map((turn) => ({ ...turn, llm_call: { ...turn.llm_call, model: 'gpt-4.1' } })) }
    const cwd = approvedThenRerun(rerun)
    expect(runCli(['diff', 'refund-agent'], cwd).code).toBe(1)
    expect(runCli(['approve', 'refund-agent'], cwd).stdout).toBe(
      [
        `updated    ${GOLDEN}`,
        '  1 difference (strict) · - expected: 3 turns · + actual: 3 turns',
        '',
        '  Turn 0 (expected) ↔ Turn 0 (actual)',
        '    ~ model: "gpt-4o" → "gpt-4.1"',
        '1 golden: 0 created, 1 updated, 0 unchanged',
        '',
      ].join('\n'),
    )
  })
})
