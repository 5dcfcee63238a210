import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/index.js'
import { renderTrace } from '../../src/storage.js'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

const golden = (cwd: string, name: string): string => join(cwd, '.reagent', 'golden', `${name}.trace.json`)

describe('reagent-flow approve', () => {
  it('writes the latest run as its golden, in golden normal form', () => {
    const cwd = traceDirWith(sampleRuns())
    const { code, stdout, stderr } = runCli(['approve', 'refund-agent'], cwd)
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(`created    ${join('.reagent', 'golden', 'refund-agent.trace.json')}\n1 golden: 1 created, 0 updated, 0 unchanged\n`)
    const run = loadTrace(join(cwd, '.reagent', 'refund-agent.trace.json'))
    expect(readFileSync(golden(cwd, 'refund-agent'), 'utf8')).toBe(renderTrace(run, { golden: true }))
    expect(readFileSync(golden(cwd, 'refund-agent'), 'utf8')).toContain('\n  "trace_id": "golden",\n')
  })

  it('reports unchanged the second time and leaves the golden file alone', () => {
    const cwd = traceDirWith(sampleRuns())
    runCli(['approve', 'refund-agent'], cwd)
    const before = statSync(golden(cwd, 'refund-agent')).mtimeMs
    expect(runCli(['approve', 'refund-agent'], cwd)).toEqual({
      code: 0,
      stdout: `unchanged  ${join('.reagent', 'golden', 'refund-agent.trace.json')}\n1 golden: 0 created, 0 updated, 1 unchanged\n`,
      stderr: '',
    })
    expect(statSync(golden(cwd, 'refund-agent')).mtimeMs).toBe(before)
  })

  it('approves every run with --all, and skips an unreadable file with exit code 2', () => {
    const cwd = traceDirWith(sampleRuns())
    runCli(['approve', 'search-agent'], cwd)
    writeFileSync(join(cwd, '.reagent', 'broken.trace.json'), '{')
    const { code, json, stderr } = runJson<{ approved: Array<{ name: string; status: string }>; unreadable: unknown[] }>(['approve', '--all'], cwd)
    expect(code).toBe(2)
    expect(json.approved.map((a) => [a.name, a.status])).toEqual([
      ['billing-agent', 'created'],
      ['refund-agent', 'created'],
      ['search-agent', 'unchanged'],
    ])
    expect(json.unreadable).toEqual([{ file: join('.reagent', 'broken.trace.json'), reason: expect.stringMatching(/^the file is not JSON/) }])
    expect(stderr).toMatch(/^reagent-flow approve: skipped \.reagent\/broken\.trace\.json: not a readable trace: the file is not JSON .*\(rule: json\)\n$/)
  })

  it('exits 2 without names or --all, and for a run that does not exist', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['approve'], cwd).stderr).toBe('reagent-flow approve: name the runs to approve (reagent-flow approve <name...>), or pass --all\n')
    expect(runCli(['approve', 'nope'], cwd).code).toBe(2)
  })
})
