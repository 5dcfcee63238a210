import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { leaksIn, secretForms } from '../redact/corpus.js'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

describe('reagent-flow grade', () => {
  it('writes the verdict into the trace file, leaving everything else as it was', () => {
    const cwd = traceDirWith(sampleRuns())
    const file = join(cwd, '.reagent', 'refund-agent.trace.json')
    const before = loadTrace(file)
    const startedAt = Date.now() / 1000
    const { code, stdout } = runCli(['grade', 'refund-agent', 'pass', '--reason', 'refund is right', '--ref', 'PR-12'], cwd)
    expect(code).toBe(0)
    expect(stdout).toBe(`graded refund-agent pass (source reviewer): ${join('.reagent', 'refund-agent.trace.json')}\n`)
    const { grade, ...after } = loadTrace(file)
    expect(after).toEqual(before)
    expect(grade).toEqual({ grade: 'pass', source: 'reviewer', reason: 'refund is right', ref: 'PR-12', graded_at: expect.any(Number) })
    expect(grade!.graded_at).toBeGreaterThanOrEqual(startedAt - 1)
    expect(readdirSync(join(cwd, '.reagent')).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('redacts secrets in --reason, --source and --ref before writing them, and prints them redacted', () => {
    const cwd = traceDirWith(sampleRuns())
    const file = join(cwd, '.reagent', 'refund-agent.trace.json')
    const forms = secretForms(2).filter((form) => typeof form.value === 'string')
    const reason = forms.map((form) => form.value).join('\n')
    const envSecret = 'grade-env-secret-0042'
    const result = runCli(
      ['grade', 'refund-agent', 'fail', '--reason', reason, '--source', `ci ${envSecret}`, '--ref', 'https://ci:hunter22@ci.example.com/run/7', '--json'],
      cwd,
      {
        CI_DEPLOY_TOKEN: envSecret,
      },
    )
    expect(result.code).toBe(0)
    const bytes = readFileSync(file, 'utf8')
    expect(leaksIn(bytes, forms)).toEqual([])
    expect(leaksIn(result.stdout, forms)).toEqual([])
    const { grade } = loadTrace(file)
    expect(grade!.source).toBe('ci [REDACTED]')
    expect(grade!.ref).toBe('https://ci:[REDACTED]@ci.example.com/run/7')
    expect(grade!.reason).toContain('Authorization: [REDACTED]')
  })

  it('is idempotent: the same verdict again reports unchanged and does not touch the file', () => {
    const cwd = traceDirWith(sampleRuns())
    const file = join(cwd, '.reagent', 'search-agent.trace.json')
    expect(runCli(['grade', 'search-agent', 'fail', '--source', 'ci'], cwd).code).toBe(0)
    const bytes = readFileSync(file, 'utf8')
    expect(runCli(['grade', 'search-agent', 'fail', '--source', 'ci'], cwd)).toEqual({
      code: 0,
      stdout: 'search-agent is already graded fail (source ci); unchanged\n',
      stderr: '',
    })
    expect(readFileSync(file, 'utf8')).toBe(bytes)
  })

  it('replaces a different verdict and says what it was, with --json', () => {
    const cwd = traceDirWith(sampleRuns())
    runCli(['grade', 'trace-search-agent', 'fail', '--source', 'ci'], cwd)
    const { code, json } = runJson<{ changed: boolean; grade: object; previous: object }>(['grade', 'search-agent', 'pass', '--reason', 'flaky API'], cwd)
    expect(code).toBe(0)
    expect(json).toEqual({
      file: join('.reagent', 'search-agent.trace.json'),
      name: 'search-agent',
      trace_id: 'trace-search-agent',
      changed: true,
      grade: { grade: 'pass', source: 'reviewer', reason: 'flaky API', ref: null, graded_at: expect.any(Number) },
      previous: { grade: 'fail', source: 'ci', reason: null, ref: null, graded_at: expect.any(Number) },
    })
  })

  it('makes list --grade pass, fail, graded and ungraded find the run', () => {
    const cwd = traceDirWith(sampleRuns())
    runCli(['grade', 'refund-agent', 'pass'], cwd)
    runCli(['grade', 'search-agent', 'fail'], cwd)
    const listed = (grade: string): unknown[] => runJson<{ runs: Array<{ name: string }> }>(['list', '--grade', grade], cwd).json.runs.map((run) => run.name)
    expect(listed('pass')).toEqual(['refund-agent'])
    expect(listed('fail')).toEqual(['search-agent'])
    expect(listed('graded')).toEqual(['search-agent', 'refund-agent'])
    expect(listed('ungraded')).toEqual(['billing-agent'])
    expect(runCli(['list', '--grade', 'pass'], cwd).stdout).toMatch(/ {2}pass\n1 run matches · showing 1–1\n$/)
  })

  it('exits 2 for a verdict other than pass or fail', () => {
    expect(runCli(['grade', 'refund-agent', 'ok'], traceDirWith(sampleRuns()))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow grade: the verdict must be pass or fail; got "ok"\n',
    })
  })
})
