/**
 * Golden variants and repeated runs in a vitest project run as a child
 * process (fixtures/vitest-variants/): a golden learns a second right
 * behaviour with `reagent-flow approve --add`, passes either after that and
 * shows the diff against the closest when the agent does neither; a run set
 * passes or fails `toPassInAtLeast`, the failure naming each failing run and
 * its trace. Each step needs the previous one, so they run in order on one copy.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(REPO, 'dist', 'src', 'cli', 'index.js')
const TRIAGE_GOLDEN = '.reagent/golden/test/triage.test.ts/triages_a_broken_order.trace.json'
const TRIAGE_RUN = '.reagent/test/triage.test.ts/triages_a_broken_order.trace.json'

describe('golden variants and repeated runs through vitest', () => {
  let dir: string
  let remove: () => void
  beforeAll(() => void ({ dir, remove } = copyFixture('vitest-variants', 'project')))
  afterAll(() => remove())

  const cli = (...args: string[]): { status: number | null; stdout: string } =>
    spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })

  it('writes the goldens on the first run; the run set counts its golden once', async () => {
    const { exitCode, output } = await runVitest(dir)
    expect(output).toContain('Tests  3 passed (3)')
    expect(output).toContain('\n     Goldens  2 written\n')
    expect(exitCode).toBe(0)
  })

  it('fails a second right behaviour with the command that adds it as a variant, which then passes, as does the first', async () => {
    const escalating = await runVitest(dir, { args: ['test/triage.test.ts'], env: { CI: 'true', TRIAGE: 'escalate' } })
    expect(escalating.exitCode).toBe(1)
    expect(escalating.output).toContain(
      [
        `Error: Trace "triages a broken order" does not match its golden baseline (${TRIAGE_GOLDEN}):`,
        '3 differences (strict) · - expected: 3 turns · + actual: 3 turns',
      ].join('\n'),
    )
    expect(escalating.output).toContain(
      [
        `If the new behaviour is right, accept it (or run the tests with vitest -u), then review and commit ${TRIAGE_GOLDEN}:`,
        `  npx reagent-flow approve ${TRIAGE_RUN}`,
        "If it is right as well as the golden's (the agent may do either), add it as another accepted variant:",
        `  npx reagent-flow approve --add ${TRIAGE_RUN}`,
      ].join('\n'),
    )

    const added = cli('approve', '--add', TRIAGE_RUN)
    expect(added.status).toBe(0)
    expect(added.stdout).toMatch(new RegExp(`^updated {4}${TRIAGE_GOLDEN.replace(/\./g, '\\.')} {2}\\(variant [12] of 2, added\\)\n`))
    expect(JSON.parse(readFileSync(join(dir, TRIAGE_GOLDEN), 'utf8')).variants).toHaveLength(1)

    for (const triage of ['escalate', 'refund']) {
      const { exitCode, output } = await runVitest(dir, { args: ['test/triage.test.ts'], env: { CI: 'true', TRIAGE: triage } })
      expect([triage, exitCode]).toEqual([triage, 0])
      expect(output).toContain('\n     Goldens  1 matched\n')
    }
  })

  it('shows the diff against the closest variant when the agent does neither', async () => {
    const { exitCode, output } = await runVitest(dir, { args: ['test/triage.test.ts'], env: { CI: 'true', TRIAGE: 'wrong' } })
    expect(exitCode).toBe(1)
    expect(output).toMatch(
      new RegExp(
        [
          `Error: Trace "triages a broken order" matches none of the 2 accepted variants of its golden baseline \\(${TRIAGE_GOLDEN.replace(/\./g, '\\.')}\\); the closest is variant [12]:`,
          '1 difference \\(strict\\) · - expected: 3 turns · \\+ actual: 3 turns',
          '',
          'Turn 1 \\(expected\\) ↔ Turn 1 \\(actual\\)',
          '  ~ issue_refund',
          '      order_id: "42" → "24"',
        ].join('\n'),
      ),
    )
  })

  it('fails a run set under the share it must reach, listing each failing run, its first failing assertion and its trace', async () => {
    const { exitCode, output } = await runVitest(dir, { args: ['test/repeated.test.ts'], env: { CI: 'true', SHARE: '0.9' } })
    expect(exitCode).toBe(1)
    const runFile = (test: string, index: number): string => `.reagent/test/repeated.test.ts/${test}___refund_agent__${index}.trace.json`
    expect(output).toContain(
      [
        'Error: expected at least 90% of the 10 runs of "refund agent" to pass the check, but 8 of 10 passed (80%). The 2 runs that failed:',
        '  #7  "issue_refund" was never called (3 turns, 2 tool calls)',
        `      ${runFile('refunds_in_most_runs', 7)}`,
        '  #8  "issue_refund" was never called (3 turns, 2 tool calls)',
        `      ${runFile('refunds_in_most_runs', 8)}`,
      ].join('\n'),
    )
    expect(output).toContain(
      [
        '  #7  Trace "refund agent #7" does not match its golden baseline (.reagent/golden/test/repeated.test.ts/matches_its_golden_in_most_runs___refund_agent.trace.json)',
        `      ${runFile('matches_its_golden_in_most_runs', 7)}`,
      ].join('\n'),
    )
    expect(output).toContain('Tests  2 failed (2)')
  })

  it('lists the runs of each run set together, under a line that sums it up and names its test', () => {
    const { stdout } = cli('list', '--q', 'refund agent', '--limit', '20')
    const lines = stdout.split('\n')
    const runs = Array.from({ length: 10 }, (_, i) => `refund agent #${i + 1}`)
    expect([lines[1], lines[12]].sort()).toEqual([
      'run set "matches its golden in most runs > refund agent" · 10 runs · 10 completed',
      'run set "refunds in most runs > refund agent" · 10 runs · 10 completed',
    ])
    expect([...lines.slice(2, 12), ...lines.slice(13, 23)].map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([...runs, ...runs])
  })
})
