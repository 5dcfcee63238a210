/**
 * A trace directory handed over from elsewhere (a CI artifact) may hold
 * symbolic links. Readers never follow one out of the folder they were
 * given: `list`, `validate` and `report` skip it with a warning, and what it
 * points at never reaches their output (a report is itself an artifact).
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session, TraceNotFoundError } from '../../src/entries/index.js'
import { runCli } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

/** A trace directory with one real run, a link to it (inside), and links to a file and a folder outside it. */
async function linkedDirectory(): Promise<{ dir: string; outsideFile: string }> {
  const dir = tempDir()
  const outside = tempDir()
  const outsideFile = join(outside, 'passwd')
  writeFileSync(outsideFile, 'root:x:0:0:root:/root:/bin/bash\n')
  mkdirSync(join(outside, 'runs'))
  await session('outside-run', { traceDir: join(outside, 'runs') }, (s) => void s.logLlmCall({ responseText: 'not yours' }))
  await session('refund-agent', { traceDir: dir }, (s) => void s.logLlmCall({ responseText: 'Refunded.' }))
  symlinkSync(outsideFile, join(dir, 'stolen.trace.json'))
  symlinkSync(join(outside, 'runs', 'outside-run.trace.json'), join(dir, 'borrowed.trace.json'))
  symlinkSync(join(outside, 'runs'), join(dir, 'linked-folder'))
  symlinkSync(join(dir, 'refund-agent.trace.json'), join(dir, 'alias.trace.json'))
  return { dir, outsideFile }
}

const skipped = (dir: string, name: string): string =>
  `reagent-flow: ${join(dir, name)} is a symbolic link that leads out of ${dir} (or nowhere); skipped: readers do not follow links out of the folder they were given.`

describe('symbolic links in a trace directory', () => {
  it('that lead out of it are skipped by list, with a warning for each; a link inside it is read', async () => {
    const { dir } = await linkedDirectory()
    const listed = runCli(['list', '--dir', dir, '--json'], dir)
    expect(listed.code).toBe(0)
    const runs = (JSON.parse(listed.stdout) as { runs: Array<{ name: string; file: string }> }).runs
    expect(runs.map((run) => run.name)).toEqual(['refund-agent', 'refund-agent'])
    expect(listed.stderr).toContain(skipped(dir, 'stolen.trace.json'))
    expect(listed.stderr).toContain(skipped(dir, 'borrowed.trace.json'))
    expect(listed.stderr).not.toContain('root:x')
  })

  it('that lead out of it are neither checked by validate nor quoted in its output', async () => {
    const { dir } = await linkedDirectory()
    const validated = runCli(['validate', '--dir', dir], dir)
    expect(validated.stdout).toBe('✓ 2 files checked: 2 valid, 0 invalid\n')
    expect(validated.code).toBe(0)
    expect(validated.stderr).toContain(skipped(dir, 'stolen.trace.json'))
    expect(validated.stderr).not.toContain('root:x')
  })

  it('to a journal is never followed: the run it records is neither listed nor recovered into a trace file here', async () => {
    const dir = tempDir()
    const outside = tempDir()
    const journal = 'elsewhere.01KE1SEWHEREE1SEWHEREE1S00.journal.jsonl'
    const open = {
      journal: 1,
      kind: 'open',
      writer: { pid: 999_999_999, thread: 0, host: hostname() },
      trace: {
        trace_id: '01KE1SEWHEREE1SEWHEREE1S00',
        name: 'elsewhere',
        turns: [],
        metadata: {},
        started_at: 1_700_000_000,
        ended_at: null,
        format_version: '1',
        parent_trace_id: null,
        handoff_context: null,
        status: 'active',
        error: null,
      },
    }
    writeFileSync(join(outside, journal), `${JSON.stringify(open)}\n`)
    symlinkSync(join(outside, journal), join(dir, journal))
    const listed = runCli(['list', '--dir', dir, '--json'], dir)
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toEqual([])
    expect(listed.stderr).toContain(skipped(dir, journal))
    // loadTrace sweeps for its own file's journals: the link is not one of them.
    expect(() => loadTrace(join(dir, 'elsewhere.trace.json'))).toThrow(TraceNotFoundError)
    expect(readdirSync(dir)).toEqual([journal])
    expect(readFileSync(join(outside, journal), 'utf8')).toBe(`${JSON.stringify(open)}\n`)
  })

  it('that lead out of it never reach the report', async () => {
    const { dir } = await linkedDirectory()
    const out = join(tempDir(), 'report.html')
    const result = runCli(['report', '--dir', dir, '--out', out], dir)
    expect(result.code).toBe(0)
    const html = readFileSync(out, 'utf8')
    expect(html).not.toContain('root:x')
    expect(html).not.toContain('not yours')
    expect(html).toContain('Refunded.')
  })
})
