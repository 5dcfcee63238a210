import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, type Trace } from '../../src/entries/index.js'
import { renderGolden } from '../../src/golden/index.js'
import { renderTrace, saveTrace } from '../../src/golden/trace-file.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, T0, traceDirWith } from './run-cli.js'

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

  it('approves with --all the runs that asked for a golden or have one, says in one line which it skipped, and skips an unreadable file with exit code 2', () => {
    const [refund, billing, search] = sampleRuns()
    const cwd = traceDirWith([{ ...refund!, golden: true }, billing!, search!])
    runCli(['approve', 'search-agent'], cwd)
    writeFileSync(join(cwd, '.reagent', 'broken.trace.json'), '{')
    const { code, json, stderr } = runJson<{
      approved: Array<{ name: string; status: string; run_set: unknown }>
      skipped: unknown[]
      unreadable: unknown[]
    }>(['approve', '--all'], cwd)
    expect(code).toBe(2)
    expect(json.approved.map((a) => [a.name, a.status, a.run_set])).toEqual([
      ['refund-agent', 'created', null],
      ['search-agent', 'unchanged', null],
    ])
    expect(json.skipped).toEqual([{ file: join('.reagent', 'billing-agent.trace.json'), name: 'billing-agent', reason: 'no_golden_asked' }])
    expect(existsSync(golden(cwd, 'billing-agent'))).toBe(false)
    expect(json.unreadable).toEqual([{ file: join('.reagent', 'broken.trace.json'), reason: expect.stringMatching(/^the file is not JSON/) }])
    expect(stderr).toMatch(/^reagent-flow approve: skipped \.reagent\/broken\.trace\.json: not a readable trace: the file is not JSON .*\(rule: json\)\n$/)
    rmSync(join(cwd, '.reagent', 'broken.trace.json'))
    expect(runCli(['approve', '--all'], cwd)).toEqual({
      code: 0,
      stdout: [
        `unchanged  ${join('.reagent', 'golden', 'refund-agent.trace.json')}`,
        `unchanged  ${join('.reagent', 'golden', 'search-agent.trace.json')}`,
        '2 goldens: 0 created, 0 updated, 2 unchanged',
        'skipped 1 run: 1 never asked for a golden and has none (billing-agent). Name a run to approve it anyway.',
        '',
      ].join('\n'),
      stderr: '',
    })
  })

  it('approves a run set (repeat) once with --all, by its lowest-numbered completed run, whatever order its runs ran in', () => {
    // Run 1 failed; runs 2 and 4 triaged by refunding, run 3 by escalating; run 5 is left from an earlier, larger run of the set.
    const triage = (index: number, setId: string, tool: string, status: 'completed' | 'failed', startedAt: number): Trace =>
      buildTrace(`triage #${index}`, [{ calls: [{ name: tool, args: { ticket: 'T-7' }, result: { ok: true } }] }, { text: 'Done.' }], {
        trace_id: `trace-triage-${index}`,
        started_at: startedAt,
        ended_at: startedAt + 1,
        status,
        golden: status === 'completed',
        repeat: { id: setId, name: 'triage', index, of: 4 },
      })
    const runs = (order: number[]): Trace[] => {
      const all = [
        triage(1, 'set-2', 'issue_refund', 'failed', T0 + order[0]!),
        triage(2, 'set-2', 'issue_refund', 'completed', T0 + order[1]!),
        triage(3, 'set-2', 'escalate', 'completed', T0 + order[2]!),
        triage(4, 'set-2', 'issue_refund', 'completed', T0 + order[3]!),
        triage(5, 'set-1', 'close_ticket', 'completed', T0 - 100),
      ]
      return all
    }
    const inOrder = traceDirWith(runs([0, 1, 2, 3]))
    const shuffled = traceDirWith(runs([3, 0, 2, 1]))
    const path = join('.reagent', 'golden', 'triage.trace.json')
    for (const cwd of [inOrder, shuffled]) {
      expect(runCli(['approve', '--all'], cwd)).toEqual({
        code: 0,
        stdout: [
          `created    ${path}  (run set "triage" of 4 runs, by run #2)`,
          '1 golden: 1 created, 0 updated, 0 unchanged',
          'skipped 1 run: 1 of an earlier run of its run set (triage #5). Name a run to approve it anyway.',
          '',
        ].join('\n'),
        stderr: '',
      })
    }
    const written = readFileSync(join(inOrder, path), 'utf8')
    expect(readFileSync(join(shuffled, path), 'utf8')).toBe(written)
    expect(written).toBe(renderGolden(loadTrace(join(inOrder, '.reagent', 'triage__2.trace.json'))).text)
    expect(JSON.parse(written)).toMatchObject({ name: 'triage', turns: [{ llm_call: { tool_calls: [{ name: 'issue_refund' }] } }, {}] })
  })

  it('creates no golden with --all for a run set none of whose runs asked for one, nor for one none of whose runs completed', () => {
    const run = (name: string, index: number, status: 'completed' | 'failed', golden: boolean): Trace =>
      buildTrace(`${name} #${index}`, [{ text: 'Done.' }], {
        trace_id: `trace-${name}-${index}`,
        status,
        golden,
        repeat: { id: `set-${name}`, name, index, of: 2 },
      })
    const cwd = traceDirWith([
      run('plain', 1, 'completed', false),
      run('plain', 2, 'completed', false),
      run('broken', 1, 'failed', true),
      run('broken', 2, 'failed', false),
    ])
    expect(runCli(['approve', '--all'], cwd).stdout).toBe(
      [
        '0 goldens: 0 created, 0 updated, 0 unchanged',
        'skipped 4 runs: 2 never asked for a golden and have none (plain #1, plain #2); 2 of a run set none of whose runs completed (broken #1, broken #2). Name a run to approve it anyway.',
        '',
      ].join('\n'),
    )
    expect(existsSync(join(cwd, '.reagent', 'golden'))).toBe(false)
  })

  it('exits 2 without names or --all, and for a run that does not exist', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['approve'], cwd).stderr).toBe('reagent-flow approve: name the runs to approve (reagent-flow approve <name...>), or pass --all\n')
    expect(runCli(['approve', 'nope'], cwd).code).toBe(2)
  })

  describe('golden variants', () => {
    /** The sample runs, with refund-agent's run as it ran today: `variant` picks what it did. */
    function withRefundRun(cwd: string, variant: 'policy' | 'plain' | 'wrong'): void {
      const [refund] = sampleRuns()
      const turns = refund!.turns.map((turn) => structuredClone(turn))
      if (variant !== 'plain') turns[1]!.llm_call.tool_calls[0]!.name = variant === 'policy' ? 'check_policy' : 'cancel_order'
      saveTrace({ ...refund!, turns }, { traceDir: join(cwd, '.reagent') })
    }

    it('adds the latest run as another accepted variant with --add, and keeps only it with --replace', () => {
      const cwd = traceDirWith(sampleRuns())
      const path = join('.reagent', 'golden', 'refund-agent.trace.json')
      runCli(['approve', 'refund-agent'], cwd)
      const plain = readFileSync(golden(cwd, 'refund-agent'), 'utf8')
      withRefundRun(cwd, 'policy')

      const added = runCli(['approve', '--add', 'refund-agent'], cwd)
      expect(added.stdout).toMatch(new RegExp(`^updated {4}${path.replace(/\./g, '\\.')} {2}\\(variant [12] of 2, added\\)\n`))
      expect(added.stdout).toContain('  + Turn 1 (actual)\n  +   check_policy({"order_id":"42"})')
      const two = readFileSync(golden(cwd, 'refund-agent'), 'utf8')
      expect(JSON.parse(two).variants).toHaveLength(1)
      expect(runCli(['approve', '--add', 'refund-agent'], cwd).stdout).toMatch(
        /^unchanged {2}.*\(variant [12] of 2\)\n1 golden: 0 created, 0 updated, 1 unchanged\n$/,
      )
      expect(runCli(['diff', 'refund-agent'], cwd).code).toBe(0)

      // Without a flag, a run that matches a variant refreshes it; one that matches none replaces them all.
      withRefundRun(cwd, 'plain')
      expect(runCli(['approve', 'refund-agent'], cwd).stdout).toMatch(/^unchanged {2}.*\(variant [12] of 2\)\n/)
      withRefundRun(cwd, 'wrong')
      const diff = runCli(['diff', 'refund-agent'], cwd)
      expect(diff.stdout).toMatch(/^- expected {2}\.reagent\/golden\/refund-agent\.trace\.json \(variant [12] of 2, the closest\)\n/)
      const { json } = runJson<{ approved: Array<{ status: string; variants: unknown }> }>(['approve', '--replace', 'refund-agent'], cwd)
      expect(json.approved.map((a) => [a.status, a.variants])).toEqual([['updated', { before: 2, after: 1, run: 1 }]])
      expect(JSON.parse(readFileSync(golden(cwd, 'refund-agent'), 'utf8'))).not.toHaveProperty('variants')
      withRefundRun(cwd, 'plain')
      expect(runCli(['approve', '--replace', 'refund-agent'], cwd).stdout).toMatch(/^updated {4}\.reagent\/golden\/refund-agent\.trace\.json\n/)
      expect(readFileSync(golden(cwd, 'refund-agent'), 'utf8')).toBe(plain)
    })

    it('says so when a run that matches no variant becomes the one variant', () => {
      const cwd = traceDirWith(sampleRuns())
      runCli(['approve', 'refund-agent'], cwd)
      withRefundRun(cwd, 'policy')
      runCli(['approve', '--add', 'refund-agent'], cwd)
      withRefundRun(cwd, 'wrong')
      expect(runCli(['approve', 'refund-agent'], cwd).stdout.split('\n')[0]).toBe(
        `updated    ${join('.reagent', 'golden', 'refund-agent.trace.json')}  (now its one variant; it had 2)`,
      )
    })

    it('refuses --add with --replace', () => {
      const cwd = traceDirWith(sampleRuns())
      expect(runCli(['approve', '--add', '--replace', 'refund-agent'], cwd)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'reagent-flow approve: pass either --add (one more variant) or --replace (the only variant), not both\n',
      })
    })
  })
})
