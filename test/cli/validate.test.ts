import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

const INVALID_FIXTURE = join(import.meta.dirname, '../../fixtures/traces/invalid/extra-key-on-tool-result.trace.json')

describe('reagent-flow validate', () => {
  it('checks every run and golden in the directory, Python-written ones included, and exits 0 when all are valid', () => {
    const cwd = traceDirWith(sampleRuns(), { python: true })
    mkdirSync(join(cwd, '.reagent', 'golden'))
    copyFileSync(
      join(import.meta.dirname, '../../fixtures/reagent-flow-py-0.5/golden/refund-agent.trace.json'),
      join(cwd, '.reagent', 'golden', 'refund-agent.trace.json'),
    )
    expect(runCli(['validate'], cwd)).toEqual({ code: 0, stdout: '✓ 8 files checked: 8 valid, 0 invalid\n', stderr: '' })
  })

  it('prints each bad file with the JSON path and the rule, and exits 1', () => {
    const cwd = traceDirWith(sampleRuns())
    copyFileSync(INVALID_FIXTURE, join(cwd, '.reagent', 'extra-key.trace.json'))
    writeFileSync(join(cwd, '.reagent', 'truncated.trace.json'), '{"trace_id": ')
    writeFileSync(join(cwd, '.reagent', 'status.trace.json'), JSON.stringify({ ...sampleRuns()[0], status: 'done' }))
    const { code, stdout, stderr } = runCli(['validate'], cwd)
    expect([code, stderr]).toEqual([1, ''])
    expect(stdout).toBe(
      [
        `✗ ${join('.reagent', 'extra-key.trace.json')}: at turns[0].tool_results[0]: unexpected key "name" (the Python reagent-flow 0.5 cannot load extra keys here) (rule: additionalProperties)`,
        `✗ ${join('.reagent', 'status.trace.json')}: at status: must be one of "active", "completed", "failed", "cancelled", "interrupted" (rule: enum)`,
        `✗ ${join('.reagent', 'truncated.trace.json')}: the file is not JSON (Unexpected end of JSON input) (rule: json)`,
        '6 files checked: 3 valid, 3 invalid',
        '',
      ].join('\n'),
    )
  })

  it('checks the files and directories given, and reports them as { checked, valid, invalid } with --json', () => {
    const cwd = traceDirWith(sampleRuns())
    const { code, json } = runJson(['validate', INVALID_FIXTURE, '.reagent'], cwd)
    expect(code).toBe(1)
    expect(json).toEqual({
      checked: 4,
      valid: 3,
      invalid: [
        {
          file: INVALID_FIXTURE,
          path: 'turns[0].tool_results[0]',
          rule: 'additionalProperties',
          message: 'unexpected key "name" (the Python reagent-flow 0.5 cannot load extra keys here)',
        },
      ],
    })
  })

  it('exits 2 for a path that does not exist', () => {
    const { code, stderr } = runCli(['validate', 'nope.trace.json'], traceDirWith(sampleRuns()))
    expect(code).toBe(2)
    expect(stderr).toBe('reagent-flow validate: No trace file at nope.trace.json. Pass trace files, or directories of them.\n')
  })
})
