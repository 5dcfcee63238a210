/**
 * A valid trace nested 100,000 levels deep, hand-written: every command
 * that reads it names the file and the rule it breaks (it is refused when
 * read, see src/trace/depth.ts), and the commands that go through a
 * directory skip it with that reason and go on.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeDeepTrace } from '../helpers/deep-trace.js'
import { runCli, runJson, sampleRuns, traceDirWith } from './run-cli.js'

const FILE = join('.reagent', 'deep.trace.json')
const REASON = 'at turns[0].tool_results[0].result[0][0][0]: nests more than 1,000 levels deep; reagent-flow reads at most 1,000 (rule: depth)'
const REFUSED = `${FILE} is not a valid reagent-flow trace: ${REASON.replace(' (rule: depth)', ' (rule: depth).')} Fix or delete the file, or record it again; the format is described by reagent-flow/schema.json.`

/** The sample runs, plus the deep trace (deep in its turns, or in its metadata too). */
function directory({ inMetadata = false } = {}): string {
  const cwd = traceDirWith(sampleRuns())
  writeDeepTrace(join(cwd, FILE), 'deep', { inMetadata })
  return cwd
}

describe('a trace nested 100,000 levels deep', () => {
  it.each([
    [['show', 'deep']],
    [['show', 'deep', '--json']],
    [['get', 'deep']],
    [['grade', 'deep', 'pass']],
    [['diff', 'deep', 'refund-agent']],
    [['diff', 'refund-agent', FILE]],
    [['tree', FILE]],
  ])('makes `reagent-flow %s` exit 2 naming the file and the rule', (args) => {
    const result = runCli(args, directory())
    expect(result).toEqual({ code: 2, stdout: '', stderr: `reagent-flow ${args[0]}: ${REFUSED}\n` })
  })

  it('makes `diff <name>` against a deep golden exit 2 naming the golden', () => {
    const cwd = traceDirWith(sampleRuns())
    writeDeepTrace(join(cwd, '.reagent', 'golden', 'refund-agent.trace.json'), 'refund-agent')
    const result = runCli(['diff', 'refund-agent'], cwd)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`reagent-flow diff: ${REFUSED.replace(FILE, join('.reagent', 'golden', 'refund-agent.trace.json'))}\n`)
  })

  it('is reported by validate as invalid, with the path and the rule', () => {
    const { code, json } = runJson<{ invalid: unknown[]; checked: number }>(['validate'], directory())
    expect(code).toBe(1)
    expect(json.checked).toBe(4)
    expect(json.invalid).toEqual([
      {
        file: FILE,
        path: 'turns[0].tool_results[0].result[0][0][0]',
        rule: 'depth',
        message: 'nests more than 1,000 levels deep; reagent-flow reads at most 1,000',
      },
    ])
  })

  it.each([false, true])('is skipped by list with its reason, the other runs listed (deep metadata: %s)', (inMetadata) => {
    const result = runJson<{ runs: Array<{ name: string }>; unreadable: unknown[] }>(['list'], directory({ inMetadata }))
    expect(result.code).toBe(0)
    expect(result.json.runs.map((run) => run.name)).toEqual(['search-agent', 'billing-agent', 'refund-agent'])
    // Its metadata is past the tail that listing reads: the whole file is read, and its turns come first.
    expect(result.json.unreadable).toEqual([{ file: FILE, reason: REASON }])
  })

  it.each([false, true])('is skipped by approve --all, which approves every other run (deep metadata: %s)', (inMetadata) => {
    const cwd = traceDirWith(sampleRuns().map((run) => ({ ...run, golden: true })))
    writeDeepTrace(join(cwd, FILE), 'deep', { inMetadata, golden: true })
    const result = runCli(['approve', '--all'], cwd)
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('3 goldens: 3 created, 0 updated, 0 unchanged')
    expect(result.stderr).toMatch(new RegExp(`^reagent-flow approve: skipped ${FILE.replace('.', '\\.')}: not a readable trace: at .*\\(rule: depth\\)\\n$`))
    for (const name of ['refund-agent', 'billing-agent', 'search-agent']) expect(existsSync(join(cwd, '.reagent', 'golden', `${name}.trace.json`))).toBe(true)
    expect(existsSync(join(cwd, '.reagent', 'golden', 'deep.trace.json'))).toBe(false)
  })

  it('is skipped by approve when named among other runs', () => {
    const cwd = directory()
    const { code, json } = runJson<{ approved: Array<{ name: string }>; unreadable: unknown[] }>(['approve', 'refund-agent', 'deep', 'search-agent'], cwd)
    expect(code).toBe(2)
    expect(json.approved.map((a) => a.name)).toEqual(['refund-agent', 'search-agent'])
    expect(json.unreadable).toEqual([{ file: FILE, reason: REASON }])
  })
})
