import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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

  it('prints { total, offset, limit, runs, unreadable } with --json', () => {
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
        },
      ],
      unreadable: [],
    })
    expect(runJson<ListJson>(['list', '--offset', '1'], cwd).json.runs[1]).toMatchObject({
      name: 'refund-agent',
      tokens: { input: 3000, output: 90, total: 3090, measured_turns: 3 },
    })
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
    const big = buildTrace('big-agent', Array.from({ length: 300 }, (_, i) => ({ calls: [{ name: 'search', args: { q: `query ${i}` }, result: 'x'.repeat(80) }] })), {
      started_at: T0 + 500,
      ended_at: T0 + 501,
    })
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
    expect(onPage.json.unreadable).toEqual([{ file: join('.reagent', 'big-agent.trace.json'), reason: expect.stringMatching(/^the file is not JSON \(.+\) \(rule: json\)$/) }])
  })
})
