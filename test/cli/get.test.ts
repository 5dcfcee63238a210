import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildTrace } from '../helpers/trace-builder.js'
import type { GetOutput } from '../../src/cli/commands/get.js'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

const PRICES = JSON.stringify({ 'gpt-4o': { input: 2.5, output: 10 }, 'gpt-4o-mini': { input: 0.15, output: 0.6 } })

describe('reagent-flow get', () => {
  it("prints the run's goal, status, final response, turns, tokens, elapsed time and budgets", () => {
    const { code, stdout, stderr } = runCli(['get', 'refund-agent'], traceDirWith(sampleRuns()))
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      [
        'name      refund-agent',
        'trace_id  trace-refund-agent',
        'goal      Refund order 42',
        'status    completed',
        'response  Refunded $19.99 for order 42.',
        'turns     3 (2 tool calls)',
        'tokens    3000 in / 90 out (3090)',
        'cost      $0.0084 (3 of 3 turns priced)',
        'elapsed   1.5s',
        'budgets   budget_usd $0.01: within ($0.0084)',
        '          budget_seconds 30s: within (1.5s)',
        `file      ${join('.reagent', 'refund-agent.trace.json')}`,
        '',
      ].join('\n'),
    )
  })

  it('prices with --prices over the built-in table and exits 1 when the run went over metadata.budget_usd', () => {
    const cwd = traceDirWith(sampleRuns())
    writeFileSync(join(cwd, 'prices.json'), JSON.stringify({ 'gpt-4o': { input: 5, output: 15 } }))
    const over = runCli(['get', 'refund-agent', '--prices', 'prices.json'], cwd)
    expect(over.code).toBe(1)
    expect(over.stdout).toContain('\ncost      $0.02 (3 of 3 turns priced)\nelapsed   1.5s\nbudgets   budget_usd $0.01: OVER ($0.02)\n')
  })

  it('says which turns the price table does not know, and that the cost budget could not be checked', () => {
    const cwd = traceDirWith([
      buildTrace('local-agent', [{ model: 'llama-3-8b', tokens: { input_tokens: 10, output_tokens: 5 } }], { metadata: { budget_usd: 0.01 } }),
    ])
    const { code, stdout } = runCli(['get', 'local-agent'], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain('\nbudgets   budget_usd $0.01: no turn could be priced: pass --prices <file> with its models\n')
    writeFileSync(join(cwd, 'prices.json'), JSON.stringify({ llama: { input: 0.1, output: 0.1 } }))
    expect(runCli(['get', 'local-agent', '--prices', 'prices.json'], cwd).stdout).toContain('\ncost      $0.0000015 (1 of 1 turn priced)\n')
  })

  it('shows the error of a failed run, its tool errors, and what could not be read', () => {
    const { code, stdout } = runCli(['get', 'search-agent'], traceDirWith(sampleRuns()))
    expect(code).toBe(0)
    expect(stdout).toBe(
      [
        'name        search-agent',
        'trace_id    trace-search-agent',
        'goal        Find the refund policy',
        'status      failed · 1 of 1 tool call failed',
        'error       TimeoutError: no answer in 30s',
        'tool error  search({"q":"refund policy"}) failed in turn 0: TimeoutError: no answer in 30s',
        'response    (no text answer)',
        'turns       1 (1 tool call)',
        'tokens      (not recorded)',
        'elapsed     30s',
        `file        ${join('.reagent', 'search-agent.trace.json')}`,
        '',
      ].join('\n'),
    )
  })

  it('does not show a run whose tools threw as a clean completed: the failed count on the status line, each tool error below it', () => {
    const flaky = buildTrace(
      'flaky-agent',
      [
        { calls: [{ name: 'search', args: { q: 'refund policy' }, error: 'TimeoutError: no answer in 30s' }] },
        {
          calls: [
            { name: 'search', args: { q: 'refunds' }, result: ['Refunds within 30 days.'] },
            { name: 'notify', args: { to: 'ops' }, error: 'ConnectionRefused' },
          ],
        },
        { text: 'Refunds are possible within 30 days.' },
      ],
      {
        orphan_results: [{ name: 'warm_cache', call_id: 'early', result: null, error: 'disk full', duration_ms: 1 }],
      },
    )
    const cwd = traceDirWith([flaky])
    const { code, stdout } = runCli(['get', 'flaky-agent'], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain(
      [
        'status      completed · 2 of 3 tool calls failed',
        'tool error  search({"q":"refund policy"}) failed in turn 0: TimeoutError: no answer in 30s',
        '            notify({"to":"ops"}) failed in turn 1: ConnectionRefused',
        '            warm_cache failed before the first turn: disk full',
        'response    Refunds are possible within 30 days.',
        'turns       3 (3 tool calls)',
      ].join('\n'),
    )
    const { json } = runJson<GetOutput>(['get', 'flaky-agent'], cwd)
    expect([json.status, json.failed_tool_calls]).toEqual(['completed', 2])
    expect(json.tool_errors).toEqual([
      { turn: 0, tool: 'search', call_id: 'call_1', arguments: { q: 'refund policy' }, error: 'TimeoutError: no answer in 30s' },
      { turn: 1, tool: 'notify', call_id: 'call_3', arguments: { to: 'ops' }, error: 'ConnectionRefused' },
      { turn: null, tool: 'warm_cache', call_id: 'early', arguments: null, error: 'disk full' },
    ])
  })

  it('lists the first five tool errors, each on one line, and counts the rest', () => {
    const looping = buildTrace(
      'looping-agent',
      Array.from({ length: 7 }, (_, i) => ({ calls: [{ name: 'fetch', args: { page: i }, error: 'HTTP 503' }] })),
    )
    looping.turns[0]!.tool_results[0]!.error = `HTTP 503\n${'<html>'.repeat(1_000)}`
    const { stdout } = runCli(['get', 'looping-agent'], traceDirWith([looping]))
    expect(stdout).toContain('status      completed · 7 of 7 tool calls failed\n')
    expect(stdout).toContain(`\ntool error  fetch({"page":0}) failed in turn 0: HTTP 503\\n${'<html>'.repeat(31)}<ht…\n`)
    expect(stdout).toContain('            fetch({"page":4}) failed in turn 4: HTTP 503\n            … 2 more (reagent-flow show draws them all)\nresponse')
  })

  it('prints every fact as JSON with --json', () => {
    const cwd = traceDirWith(sampleRuns())
    writeFileSync(join(cwd, 'prices.json'), PRICES)
    const { code, json } = runJson(['get', 'trace-refund-agent', '--prices', 'prices.json'], cwd)
    expect(code).toBe(0)
    expect(json).toEqual({
      file: join('.reagent', 'refund-agent.trace.json'),
      name: 'refund-agent',
      trace_id: 'trace-refund-agent',
      goal: 'Refund order 42',
      status: 'completed',
      error: null,
      interruption_reason: null,
      final_response: 'Refunded $19.99 for order 42.',
      turns: 3,
      tool_calls: 2,
      failed_tool_calls: 0,
      tool_errors: [],
      tokens: { input: 3000, output: 90, total: 3090, measured_turns: 3 },
      cost: { usd: expect.closeTo(0.0084, 10), priced_turns: 3, unpriced: [] },
      elapsed_ms: 1500,
      budgets: [
        { key: 'budget_usd', limit: 0.01, actual: expect.closeTo(0.0084, 10), over: false, note: null },
        { key: 'budget_seconds', limit: 30, actual: 1.5, over: false, note: null },
      ],
      grade: null,
    })
  })

  it('exits 2 naming the price table entry at fault', () => {
    const cwd = traceDirWith(sampleRuns())
    writeFileSync(join(cwd, 'prices.json'), JSON.stringify({ 'gpt-4o': { input: '2.5' } }))
    expect(runCli(['get', 'refund-agent', '--prices', 'prices.json'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow get: --prices prices.json: "gpt-4o" must have "input" and "output" as numbers >= 0 (USD per 1M tokens); got {"input":"2.5"}\n',
    })
    expect(runCli(['get', 'refund-agent', '--prices', 'nope.json'], cwd).stderr).toBe(
      'reagent-flow get: --prices nope.json: no such file. It holds USD per 1M tokens per model prefix: { "gpt-4o": { "input": 2.5, "output": 10 } }\n',
    )
  })
})
