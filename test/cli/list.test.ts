import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Trace } from '../../src/entries/index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, T0, traceDirWith } from './run-cli.js'

interface ListJson {
  total: number
  offset: number
  limit: number
  runs: Array<Record<string, unknown>>
  unreadable: Array<{ file: string; reason: string }>
}

const names = (json: ListJson): unknown[] => json.runs.map((run) => run.name)

describe('reagent-flow list', () => {
  it('prints a table of the runs, newest first, Python-written ones included, failed tool calls counted, and the match count', () => {
    const cwd = traceDirWith(sampleRuns(), { python: true })
    const { code, stdout, stderr } = runCli(['list'], cwd)
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(stdout).toBe(
      [
        'NAME             TRACE ID                              STATUS     STARTED (UTC)        DURATION  TURNS         CALLS  TOKENS  GRADE',
        'search-agent     trace-search-agent                    failed     2027-01-15 08:01:00       30s      1  1 (1 failed)       —  —',
        'billing-agent    trace-billing-agent                   completed  2027-01-15 08:00:00     250ms      2             1     310  —',
        'refund-agent     trace-refund-agent                    completed  2027-01-15 08:00:00      1.5s      3             2    3090  —',
        'with-secrets     276e0425-084e-49ce-963b-f72620e61bc2  completed  2026-11-30 12:29:28      26µs      2             1       —  —',
        'researcher       151c43c4-4136-448e-a599-06454f7cb61c  completed  2026-11-30 12:29:28       7µs      1             0       —  —',
        'planner          d2ff446d-08a1-4e96-85cf-fcd13b3cd18b  completed  2026-11-30 12:29:28      18µs      1             1       —  —',
        'parallel-search  36e0c196-7a89-4b54-906a-2979677043ba  completed  2026-11-30 12:29:28      44µs      2  2 (1 failed)     184  —',
        '7 runs match · showing 1–7',
        '',
      ].join('\n'),
    )
  })

  it('prints { total, offset, limit, runs, run_sets, unreadable } with --json', () => {
    const cwd = traceDirWith(sampleRuns())
    const { code, json } = runJson<ListJson>(['list', '--limit', '1'], cwd)
    expect(code).toBe(0)
    expect(json).toEqual({
      total: 3,
      offset: 0,
      limit: 1,
      runs: [
        {
          file: join('.reagent', 'search-agent.trace.json'),
          name: 'search-agent',
          test_key: null,
          trace_id: 'trace-search-agent',
          status: 'failed',
          goal: 'Find the refund policy',
          started_at: T0 + 60,
          ended_at: T0 + 90.25,
          duration_ms: 30_250,
          turns: 1,
          tool_calls: 1,
          failed_tool_calls: 1,
          tokens: null,
          grade: null,
          repeat: null,
        },
      ],
      run_sets: [],
      unreadable: [],
    })
    expect(runJson<ListJson>(['list', '--offset', '1'], cwd).json.runs[1]).toMatchObject({
      name: 'refund-agent',
      tokens: { input: 3000, output: 90, total: 3090, measured_turns: 3 },
    })
  })

  it('groups the runs of a run set (repeat), in their order under a line that sums the set up', () => {
    // Three runs of one set, started out of order and around another run; a fourth run of the set is on no page.
    const run = (index: number, startedAt: number, status: 'completed' | 'failed'): Trace =>
      buildTrace(`refund #${index}`, [{ text: 'Refunded.' }], {
        trace_id: `trace-refund-${index}`,
        started_at: startedAt,
        ended_at: startedAt + 1,
        status,
        repeat: { id: 'set-1', name: 'refund', index, of: 4 },
      })
    const other = buildTrace('search-agent', [{ text: 'Found it.' }], { started_at: T0 + 15, ended_at: T0 + 16 })
    const cwd = traceDirWith([run(1, T0, 'completed'), run(2, T0 + 30, 'failed'), other, run(3, T0 + 10, 'completed'), run(4, T0 - 60, 'completed')])

    const { json } = runJson<ListJson & { run_sets: unknown[] }>(['list', '--limit', '4'], cwd)
    expect(names(json)).toEqual(['refund #1', 'refund #2', 'refund #3', 'search-agent'])
    expect(json.runs.map((row) => row.repeat)).toEqual([
      { id: 'set-1', index: 1, of: 4 },
      { id: 'set-1', index: 2, of: 4 },
      { id: 'set-1', index: 3, of: 4 },
      null,
    ])
    expect(json.run_sets).toEqual([{ id: 'set-1', name: 'refund', test_key: null, of: 4, runs: 4, statuses: { completed: 3, failed: 1 } }])
    expect(runCli(['list', '--limit', '4'], cwd).stdout).toBe(
      [
        'NAME          TRACE ID            STATUS     STARTED (UTC)        DURATION  TURNS  CALLS  TOKENS  GRADE',
        'run set "refund" · 4 runs · 3 completed, 1 failed',
        '  refund #1   trace-refund-1      completed  2027-01-15 08:00:00      1.0s      1      0       —  —',
        '  refund #2   trace-refund-2      failed     2027-01-15 08:00:30      1.0s      1      0       —  —',
        '  refund #3   trace-refund-3      completed  2027-01-15 08:00:10      1.0s      1      0       —  —',
        'search-agent  trace-search-agent  completed  2027-01-15 08:00:15      1.0s      1      0       —  —',
        '5 runs match · showing 1–4',
        '',
      ].join('\n'),
    )
  })

  it('names a run recorded inside a vitest test by its test, and a session of its own in the test as test > session', () => {
    const inTest = (name: string, key: string, startedAt: number): Trace =>
      buildTrace(name, [{ text: 'Refunded.' }], {
        trace_id: `trace-${startedAt - T0}`,
        started_at: startedAt,
        ended_at: startedAt + 1,
        test_file: 'test/support.test.ts',
        test_name: 'support agent (langgraph) > refunds order 42',
        test_key: key,
      })
    const cwd = traceDirWith([
      inTest('support agent (langgraph) > refunds order 42', 'support agent (langgraph) > refunds order 42', T0),
      inTest('billing', 'support agent (langgraph) > refunds order 42 > billing', T0 + 1),
      buildTrace('search-agent', [{ text: 'Found it.' }], { started_at: T0 + 2, ended_at: T0 + 3 }),
    ])
    expect(runCli(['list'], cwd).stdout).toBe(
      [
        'NAME                                                    TRACE ID            STATUS     STARTED (UTC)        DURATION  TURNS  CALLS  TOKENS  GRADE',
        'search-agent                                            trace-search-agent  completed  2027-01-15 08:00:02      1.0s      1      0       —  —',
        'support agent (langgraph) > refunds order 42 > billing  trace-1             completed  2027-01-15 08:00:01      1.0s      1      0       —  —',
        'support agent (langgraph) > refunds order 42            trace-0             completed  2027-01-15 08:00:00      1.0s      1      0       —  —',
        '3 runs match · showing 1–3',
        '',
      ].join('\n'),
    )
    const { json } = runJson<ListJson>(['list', '--q', 'refunds order'], cwd)
    expect(json.runs.map((run) => [run.name, run.test_key])).toEqual([
      ['billing', 'support agent (langgraph) > refunds order 42 > billing'],
      ['support agent (langgraph) > refunds order 42', 'support agent (langgraph) > refunds order 42'],
    ])
  })

  it('filters by status, by text in the name, trace_id or goal, and by grade, and counts the matches', () => {
    const cwd = traceDirWith(sampleRuns(), { python: true })
    expect(names(runJson<ListJson>(['list', '--status', 'failed'], cwd).json)).toEqual(['search-agent'])
    expect(names(runJson<ListJson>(['list', '--q', 'REFUND'], cwd).json)).toEqual(['search-agent', 'refund-agent'])
    expect(names(runJson<ListJson>(['list', '--q', 'd2ff446d'], cwd).json)).toEqual(['planner'])
    expect(runJson<ListJson>(['list', '--grade', 'graded'], cwd).json.total).toBe(0)
    expect(runJson<ListJson>(['list', '--grade', 'ungraded'], cwd).json.total).toBe(7)
    expect(runCli(['list', '--status', 'cancelled'], cwd).stdout).toBe('no runs match\n')
  })

  it('orders by start or duration, either way, and pages with --limit and --offset', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(names(runJson<ListJson>(['list', '--order-by', 'started_asc'], cwd).json)).toEqual(['refund-agent', 'billing-agent', 'search-agent'])
    expect(names(runJson<ListJson>(['list', '--order-by', 'duration_desc'], cwd).json)).toEqual(['search-agent', 'refund-agent', 'billing-agent'])
    expect(names(runJson<ListJson>(['list', '--order-by', 'duration_asc'], cwd).json)).toEqual(['billing-agent', 'refund-agent', 'search-agent'])
    const page = runJson<ListJson>(['list', '--order-by', 'started_asc', '--limit', '1', '--offset', '1'], cwd).json
    expect([page.total, page.offset, page.limit, names(page)]).toEqual([3, 1, 1, ['billing-agent']])
    expect(runCli(['list', '--limit', '2', '--offset', '1'], cwd).stdout).toMatch(/\n3 runs match · showing 2–3\n$/)
    expect(runCli(['list', '--offset', '5'], cwd).stdout).toBe('3 runs match · none at --offset 5\n')
  })

  it('skips damaged and foreign JSON files, naming each on stderr and under "unreadable"', () => {
    const cwd = traceDirWith(sampleRuns())
    writeFileSync(join(cwd, '.reagent', 'broken.trace.json'), '{"trace_id": "x", "name": ')
    writeFileSync(join(cwd, '.reagent', 'package.trace.json'), '{"name": "not-a-trace", "version": "1.0.0"}\n')
    const { code, stdout, stderr } = runCli(['list'], cwd)
    expect(code).toBe(0)
    expect(stdout).toMatch(/\n3 runs match · showing 1–3\n$/)
    expect(stderr).toBe(
      [
        'reagent-flow list: skipped .reagent/broken.trace.json: not a readable trace: the file is not JSON (Unexpected end of JSON input) (rule: json)',
        'reagent-flow list: skipped .reagent/package.trace.json: not a readable trace: at the top level: missing required key "trace_id" (rule: required)',
        '',
      ].join('\n'),
    )
    expect(runJson<ListJson>(['list'], cwd).json.unreadable).toEqual([
      { file: join('.reagent', 'broken.trace.json'), reason: 'the file is not JSON (Unexpected end of JSON input) (rule: json)' },
      { file: join('.reagent', 'package.trace.json'), reason: 'at the top level: missing required key "trace_id" (rule: required)' },
    ])
  })

  it('reads a large file at its ends only, and sets it apart when its middle turns out damaged on the page', () => {
    const big = buildTrace(
      'big-agent',
      Array.from({ length: 300 }, (_, i) => ({ calls: [{ name: 'search', args: { q: `query ${i}` }, result: 'x'.repeat(80) }] })),
      {
        started_at: T0 + 500,
        ended_at: T0 + 501,
      },
    )
    const cwd = traceDirWith([...sampleRuns(), big])
    const file = join(cwd, '.reagent', 'big-agent.trace.json')
    expect(names(runJson<ListJson>(['list', '--limit', '1'], cwd).json)).toEqual(['big-agent'])
    writeFileSync(file, readFileSync(file, 'utf8').replace('"query 150"', '"query 150'))
    // Off the page, only its ends are read: it is counted, and not read whole.
    const offPage = runJson<ListJson>(['list', '--order-by', 'started_asc', '--limit', '1'], cwd)
    expect([offPage.json.total, names(offPage.json), offPage.json.unreadable]).toEqual([4, ['refund-agent'], []])
    // On the page it is read whole: then it is not a run.
    const onPage = runJson<ListJson>(['list', '--limit', '1'], cwd)
    expect(onPage.json.total).toBe(3)
    expect(onPage.json.runs).toEqual([])
    expect(onPage.json.unreadable).toEqual([
      { file: join('.reagent', 'big-agent.trace.json'), reason: expect.stringMatching(/^the file is not JSON \(.+\) \(rule: json\)$/) },
    ])
  })
})
