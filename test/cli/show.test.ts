import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, T0, traceDirWith } from './run-cli.js'

describe('reagent-flow show', () => {
  it('prints the run as an agent stack trace, then its id, file, start and children', () => {
    const { code, stdout, stderr } = runCli(['show', 'refund-agent'], traceDirWith(sampleRuns()))
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      [
        'refund-agent  completed · 3 turns · 2 tool calls · 3090 tokens (3000 in / 90 out) · 1.5s',
        '  ✓ Turn 0  310ms  gpt-4o',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"amount":19.99}  2ms',
        '  ✓ Turn 1  420ms  gpt-4o',
        '      LLM -> issue_refund({"order_id":"42"})',
        '        ✓ {"ok":true}  4ms',
        '  ✓ Turn 2  280ms  gpt-4o',
        '      LLM -> “Refunded $19.99 for order 42.”',
        '',
        'trace_id  trace-refund-agent',
        `file      ${join('.reagent', 'refund-agent.trace.json')}`,
        'started   2027-01-15 08:00:00 UTC',
        'children  billing-agent  trace-billing-agent',
        '',
      ].join('\n'),
    )
  })

  it('finds a run by trace_id and names its parent and the keys handed over', () => {
    const { code, stdout } = runCli(['show', 'trace-billing-agent'], traceDirWith(sampleRuns()))
    expect(code).toBe(0)
    expect(stdout).toMatch(/^billing-agent {2}completed · 2 turns · 1 tool call · 310 tokens \(300 in \/ 10 out\) · 250ms\n {2}child of trace-refund-agent\n/)
    expect(stdout).toMatch(/\nparent {4}refund-agent {2}trace-refund-agent\nhandoff {3}order_id, reason\n$/)
  })

  it('shows the tool error and the run error of a failed run', () => {
    const { stdout } = runCli(['show', 'search-agent'], traceDirWith(sampleRuns()))
    expect(stdout).toContain(
      [
        'search-agent  failed · 1 turn · 1 tool call (1 failed) · 30s',
        '  ✗ Turn 0  0µs  gpt-4o-mini',
        '      LLM -> search({"q":"refund policy"})',
        '        ✗ TimeoutError: no answer in 30s  30s',
        '  ✗ TimeoutError: no answer in 30s',
        '',
      ].join('\n'),
    )
  })

  it('reads a Python-written trace by path or by the start of its trace_id, with its Python parent', () => {
    const cwd = traceDirWith([], { python: true })
    const byPath = runCli(['show', join('.reagent', 'researcher.trace.json')], cwd)
    expect(byPath.code).toBe(0)
    expect(byPath.stdout).toContain('\nparent    planner  d2ff446d-08a1-4e96-85cf-fcd13b3cd18b\nhandoff   topic, depth, sources\n')
    expect(runCli(['show', '151c43c4'], cwd).stdout).toBe(byPath.stdout)
    expect(runCli(['show', 'planner'], cwd).stdout).toContain('\nchildren  researcher  151c43c4-4136-448e-a599-06454f7cb61c\n')
  })

  it('says when the parent is not in the directory, and refuses an id start shared by several runs', () => {
    const orphan = buildTrace('orphan', [{ text: 'hi' }], { parent_trace_id: 'trace-gone', started_at: T0, ended_at: T0 + 1 })
    const cwd = traceDirWith([...sampleRuns(), orphan])
    expect(runCli(['show', 'orphan'], cwd).stdout).toContain('\nparent    trace-gone (not in .reagent)\n')
    expect(runCli(['show', 'trace-'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow show: "trace-" starts the trace_id of 4 runs: ${['billing-agent', 'orphan', 'refund-agent', 'search-agent'].map((n) => `"${n}" (${join('.reagent', `${n}.trace.json`)})`).join(', ')}. Give more of the id.\n`,
    })
  })

  describe('runs recorded inside vitest tests', () => {
    /** Runs of two test files: a test with a session of its own (billing), the same test name in both files, and another test. */
    function testRuns(): string {
      const run = (file: string, key: string, name = key) =>
        buildTrace(name, [{ text: `answer of ${key}` }], {
          trace_id: `trace-${key}`,
          started_at: T0,
          ended_at: T0 + 1,
          test_file: file,
          test_name: key,
          test_key: key,
        })
      const billing = run('test/langgraph.test.ts', 'support agent (langgraph) > refunds order 42 > billing', 'billing')
      billing.test_name = 'support agent (langgraph) > refunds order 42'
      return traceDirWith([
        run('test/langgraph.test.ts', 'support agent (langgraph) > refunds order 42'),
        billing,
        run('test/langgraph.test.ts', 'support agent (langgraph) > cancels order 7'),
        run('test/openai.test.ts', 'support agent (openai) > refunds order 42'),
      ])
    }
    const fileOf = (key: string): string => join('.reagent', `${key.replace(/[^\w.-]/g, '_')}.trace.json`)
    const header = (key: string): string => `${key}  completed · 1 turn · 0 tool calls · 1.0s\n`

    it('finds a run by its full name, its session name, or the end of its name from a word on', () => {
      const cwd = testRuns()
      const headOf = (ref: string): string => runCli(['show', ref], cwd).stdout.split('\n')[0]!.concat('\n')
      expect(headOf('support agent (langgraph) > refunds order 42')).toBe(header('support agent (langgraph) > refunds order 42'))
      expect(headOf('cancels order 7')).toBe(header('support agent (langgraph) > cancels order 7'))
      expect(headOf('order 7')).toBe(header('support agent (langgraph) > cancels order 7'))
      expect(headOf('billing')).toBe(header('billing'))
      expect(headOf('refunds order 42 > billing')).toBe(header('billing'))
      expect(runCli(['get', 'cancels order 7', '--json'], cwd).stdout).toContain(
        `"file": ${JSON.stringify(fileOf('support agent (langgraph) > cancels order 7'))}`,
      )
    })

    it('lists the candidates when the end of a name fits several runs, and says how to pick one', () => {
      const cwd = testRuns()
      const langgraph = fileOf('support agent (langgraph) > refunds order 42')
      const openai = fileOf('support agent (openai) > refunds order 42')
      expect(runCli(['show', 'refunds order 42'], cwd)).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `reagent-flow show: "refunds order 42" ends the names of 2 runs: "support agent (langgraph) > refunds order 42" (${langgraph}), ` +
          `"support agent (openai) > refunds order 42" (${openai}). Pass more of the name (the whole of it, in quotes), the file or the trace_id of the one you mean.\n`,
      })
      expect(runCli(['show', 'der 42'], cwd).code).toBe(2)
    })

    it('says when no run fits, suggesting the closest names', () => {
      expect(runCli(['show', 'refund order 42'], testRuns())).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'reagent-flow show: No trace file at .reagent/refund_order_42.trace.json. "refund order 42" is not a trace file, nor the name (or the end of the name), ' +
          'session name or trace_id of any of the 4 runs in .reagent. The closest: "support agent (langgraph) > refunds order 42", ' +
          '"support agent (langgraph) > refunds order 42 > billing", "support agent (openai) > refunds order 42". ' +
          'Run "reagent-flow list --dir .reagent" to see them.\n',
      })
    })
  })

  it('ends with the grade: verdict, source, time, reason and ref, as get prints it', () => {
    const grade = { grade: 'fail' as const, source: 'ci', reason: 'refunded twice', ref: 'https://ci.example.com/run/812', graded_at: T0 + 3600 }
    const cwd = traceDirWith([buildTrace('graded', [{ text: 'hi' }], { started_at: T0, ended_at: T0 + 1, grade })])
    const line = 'grade     fail · ci · 2027-01-15 09:00:00 UTC · refunded twice · https://ci.example.com/run/812\n'
    const shown = runCli(['show', 'graded'], cwd).stdout
    expect(shown.slice(shown.lastIndexOf('\ngrade'))).toBe(`\n${line}`)
    expect(runCli(['get', 'graded'], cwd).stdout).toContain(`\n${line}`)
  })

  it('prints { file, trace, parent, children } with --json', () => {
    const cwd = traceDirWith(sampleRuns())
    const { code, json } = runJson<{ file: string; trace: { trace_id: string; turns: unknown[] }; parent: unknown; children: unknown[] }>(
      ['show', 'billing-agent'],
      cwd,
    )
    expect(code).toBe(0)
    expect(json.file).toBe(join('.reagent', 'billing-agent.trace.json'))
    expect([json.trace.trace_id, json.trace.turns.length]).toEqual(['trace-billing-agent', 2])
    expect(json.parent).toEqual({ trace_id: 'trace-refund-agent', name: 'refund-agent', file: join('.reagent', 'refund-agent.trace.json') })
    expect(json.children).toEqual([])
  })

  describe('a run with helper runs (a simulated user, judges, simulated tools)', () => {
    const helper = (name: string, role: string, model: string, input: number, output: number, at: number) =>
      buildTrace(name, [{ text: 'ok', model, tokens: { input_tokens: input, output_tokens: output } }], {
        trace_id: `trace-${role}`,
        parent_trace_id: 'trace-support',
        metadata: { reagent_role: role },
        started_at: T0 + at,
        ended_at: T0 + 2,
      })
    const supportRuns = () =>
      traceDirWith([
        buildTrace('support', [{ text: 'Refunded order 42.', model: 'gpt-4o-mini', tokens: { input_tokens: 1000, output_tokens: 100 } }], {
          trace_id: 'trace-support',
          started_at: T0,
          ended_at: T0 + 3,
        }),
        helper('support > user', 'user', 'gpt-4o', 20_000, 500, 1),
        helper('support > judge', 'judge', 'o1', 10_000, 1000, 1.5),
        // A sub-agent is the agent's: its own run, never a part of the bill shown here.
        buildTrace('billing', [{ text: 'ok', tokens: { input_tokens: 7, output_tokens: 1 } }], { parent_trace_id: 'trace-support', started_at: T0 + 2 }),
      ])

    it('ends with a spend line: the agent, each helper that spent anything, and the total, in tokens and dollars', () => {
      const { code, stdout } = runCli(['show', 'support'], supportRuns())
      expect(code).toBe(0)
      expect(stdout.slice(stdout.indexOf('\nchildren'))).toBe(
        [
          '',
          'children  support > user  trace-user',
          '          support > judge  trace-judge',
          '          billing  trace-billing',
          'spend     agent 1100 tokens $0.00021 · user 20500 tokens $0.06 · judge 11000 tokens $0.21 · total 32600 tokens $0.27',
          '',
        ].join('\n'),
      )
    })

    it('prints the split as spend with --json, and nothing of it for a run without helpers', () => {
      const cwd = supportRuns()
      const { json } = runJson<{ spend?: Record<string, { tokens: number; usd: number | null }> }>(['show', 'support'], cwd)
      expect(Object.fromEntries(Object.entries(json.spend!).map(([role, part]) => [role, [part.tokens, part.usd]]))).toEqual({
        agent: [1100, 0.00021],
        user: [20_500, 0.055],
        judge: [11_000, 0.21],
        tools: [0, 0],
        total: [32_600, 0.26521],
      })
      expect(runJson(['show', 'support > user'], cwd).json).not.toHaveProperty('spend')
      expect(runCli(['show', 'refund-agent'], traceDirWith(sampleRuns())).stdout).not.toContain('spend')
    })
  })
})
