/**
 * Goldens and traces in an ordinary suite (fixtures/vitest-suite/): six test
 * files run by vitest as a child process, with five workers under both
 * pools, from another working directory, under CI, with a renamed test and
 * a filter, and with isolate: false. Each step needs the previous one, so they run in order on one copy.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTrace } from 'reagent-flow'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const GOLDENS = [
  'concurrent.test.ts/side_by_side___refunds_while_others_research.trace.json',
  'concurrent.test.ts/side_by_side___researches_comets.trace.json',
  'concurrent.test.ts/side_by_side___researches_moons.trace.json',
  'concurrent.test.ts/side_by_side___researches_rings.trace.json',
  'plain-sessions.test.ts/a_plain_session_and_a_child___researcher.trace.json',
  'renamed.test.ts/researches_glaciers.trace.json',
  'renamed.test.ts/researches_volcanoes.trace.json',
  'research.test.ts/happy_path.trace.json',
  'research.test.ts/research_agent___reads_what_it_found.trace.json',
  'support-eu.test.ts/happy_path.trace.json',
  'support-us.test.ts/refunds_a_US_order_through_billing.trace.json',
  'support-us.test.ts/refunds_a_US_order_through_billing___billing-agent.trace.json',
]

function goldenFiles(dir: string): string[] {
  const root = join(dir, '.reagent', 'golden', 'test')
  return readdirSync(root)
    .flatMap((folder) => readdirSync(join(root, folder)).map((file) => `${folder}/${file}`))
    .sort()
}

describe('a suite of six test files', () => {
  let dir: string
  let remove: () => void
  // A folder of its own inside a fresh one: the run from the parent folder must leave that parent as it was.
  beforeAll(() => void ({ dir, remove } = copyFixture('vitest-suite', 'suite')))
  afterAll(() => remove())

  it('writes every golden on the first run, under its test file, and says so in one summary line', async () => {
    const { exitCode, output } = await runVitest(dir)
    expect(output).toContain('Tests  11 passed (11)')
    expect(exitCode).toBe(0)
    expect(output).toContain('\n     Goldens  12 written\n')
    expect(output.match(/Goldens {2}/g)).toHaveLength(1)
    expect(goldenFiles(dir)).toEqual(GOLDENS.map((file) => file))
  })

  it('gives the same test name in two files a golden each, and each file its own billing-agent run', () => {
    const golden = (file: string): string => readFileSync(join(dir, '.reagent', 'golden', 'test', file), 'utf8')
    expect(golden('support-eu.test.ts/happy_path.trace.json')).toContain('"name": "read_ticket"')
    expect(golden('research.test.ts/happy_path.trace.json')).toContain('"name": "search"')
    const billing = (file: string, key: string): string => join(dir, '.reagent', 'test', file, `${key}___billing-agent.trace.json`)
    expect(loadTrace(billing('support-eu.test.ts', 'happy_path')).handoff_context).toEqual({ order_id: 'eu-42', amount: 19.99 })
    expect(loadTrace(billing('support-us.test.ts', 'refunds_a_US_order_through_billing')).handoff_context).toEqual({ order_id: 'us-7', amount: 5 })
    expect(loadTrace(billing('support-eu.test.ts', 'happy_path'))).toMatchObject({
      test_file: 'test/support-eu.test.ts',
      test_name: 'happy path',
      test_key: 'happy path > billing-agent',
    })
  })

  it('passes ten times in a row with five workers, under threads and forks, and writes no golden', async () => {
    for (const file of GOLDENS) utimesSync(join(dir, '.reagent', 'golden', 'test', file), new Date(1_000_000), new Date(1_000_000))
    for (let round = 0; round < 10; round++) {
      const pool = round % 2 === 0 ? 'threads' : 'forks'
      const { exitCode, output } = await runVitest(dir, { args: ['--maxWorkers=5', `--pool=${pool}`], env: { CI: 'true' } })
      expect([round, pool, exitCode, output.includes('Tests  11 passed (11)')]).toEqual([round, pool, 0, true])
      expect(output).toContain('\n     Goldens  12 matched\n')
    }
    for (const file of GOLDENS) expect(statSync(join(dir, '.reagent', 'golden', 'test', file)).mtimeMs).toBe(1_000_000)
  }, 300_000)

  it('wraps the tests of every file with isolate: false, under threads and forks with five workers: runs and goldens stay under their test files', async () => {
    for (const pool of ['threads', 'forks']) {
      const { exitCode, output } = await runVitest(dir, { args: ['--isolate=false', '--maxWorkers=5', `--pool=${pool}`], env: { CI: 'true' } })
      expect([pool, exitCode, output.includes('Tests  11 passed (11)')]).toEqual([pool, 0, true])
      expect(output).toContain('\n     Goldens  12 matched\n')
      expect(output).not.toContain('REAGENT_TEST_SCOPE')
      // Every run in its test file's folder: nothing at the top of the trace directory but the run's results file's folder.
      expect(readdirSync(join(dir, '.reagent')).sort()).toEqual(['golden', 'results', 'test'])
    }
  }, 120_000)

  it('warns, once per file, about the test files that a setup file of its own leaves unwrapped with isolate: false', async () => {
    const { output } = await runVitest(dir, {
      args: ['--isolate=false', '--maxWorkers=1', 'test/research.test.ts', 'test/renamed.test.ts'],
      env: { CI: 'true', OWN_SETUP: '1' },
    })
    const warnings = output.split('\n').filter((line) => line.includes('[REAGENT_TEST_SCOPE]'))
    // One worker runs both files: the first is wrapped (the setup file's import is evaluated for it), the second is not.
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /ReagentWarning: reagent-flow: a session was opened in \/.+\/suite\/test\/(research|renamed)\.test\.ts, whose tests reagent-flow\/vitest does not wrap: its runs are not placed under the test file, and a test that times out does not close them\. vitest evaluates the modules a setup file imports once per worker \(with isolate: false, for its first test file only\): name 'reagent-flow\/vitest' itself in setupFiles\.$/,
    )
    for (const file of readdirSync(join(dir, '.reagent')).filter((name) => name.endsWith('.trace.json'))) rmSync(join(dir, '.reagent', file))
  })

  it('reads the committed goldens when vitest runs from another working directory with --root', async () => {
    const { exitCode, output } = await runVitest(dirname(dir), { args: ['--root', basename(dir)], env: { CI: 'true' } })
    expect(output).toContain('Tests  11 passed (11)')
    expect(output).toContain('\n     Goldens  12 matched\n')
    expect(exitCode).toBe(0)
    expect(readdirSync(dirname(dir))).toEqual(['suite'])
  })

  it('fails a test whose agent dropped a tool call with our diff alone, ending with the command that accepts it', async () => {
    const { exitCode, output } = await runVitest(dir, { args: ['test/research.test.ts'], env: { CI: 'true', DROP_TOOL: 'read_page' } })
    expect(exitCode).toBe(1)
    expect(output).toContain(' FAIL  test/research.test.ts > happy path\n')
    const golden = '.reagent/golden/test/research.test.ts/research_agent___reads_what_it_found.trace.json'
    expect(output).toContain(
      [
        ' FAIL  test/research.test.ts > research agent > reads what it found',
        `Error: Trace "research agent > reads what it found" does not match its golden baseline (${golden}):`,
        '1 difference (strict) · - expected: 3 turns · + actual: 2 turns',
        '',
        '- Turn 1 (expected)',
        '-   read_page({"url":"https://example.org/reefs-1"})',
        '',
        `If the new behaviour is right, accept it (or run the tests with vitest -u), then review and commit ${golden}:`,
        '  npx reagent-flow approve .reagent/test/research.test.ts/research_agent___reads_what_it_found.trace.json',
        "If it is right as well as the golden's (the agent may do either), add it as another accepted variant:",
        '  npx reagent-flow approve --add .reagent/test/research.test.ts/research_agent___reads_what_it_found.trace.json',
        ' ❯ test/research.test.ts:14:15',
      ].join('\n'),
    )
    // The golden's failure ends at the assertion's place: no second diff of vitest's below it.
    expect(output).toContain('\n     Goldens  1 failed\n')
  })

  it('shows, for an agent that threw, its own error once and then what its trace says and where the trace is', async () => {
    const { exitCode, output } = await runVitest(dir, { args: ['test/support-us.test.ts'], env: { CI: 'true', EXPLODE: '1' } })
    expect(exitCode).toBe(1)
    expect(output).toContain(' FAIL  test/support-us.test.ts > refunds a US order through billing\nError: downstream exploded\n')
    expect(output.replace(/\d+(\.\d+)?(µs|ms)/g, '<t>')).toContain(
      [
        'reagent-flow: session "refunds a US order through billing" ended failed. What the agent did:',
        'refunds a US order through billing  failed · 1 turn · 1 tool call · 60 tokens (50 in / 10 out) · <t>',
        '  ✓ Turn 0  <t>  scripted-model',
        '      LLM -> read_ticket({"order_id":"us-7"})',
        '        ✓ {"topic":"refund"}',
        // The test's own error is vitest's to print (above): named here, not printed twice.
        "  ✗ Error (the test's error, shown in full below)",
        'trace: .reagent/test/support-us.test.ts/refunds_a_US_order_through_billing.trace.json',
      ].join('\n'),
    )
  })

  it('reports the golden of a renamed test as obsolete, keeps it under a filtered -u, and removes it with -u', async () => {
    const stale = join(dir, '.reagent', 'golden', 'test', 'renamed.test.ts', 'researches_volcanoes.trace.json')
    const renamed = await runVitest(dir, { env: { RENAMED: '1' } })
    expect(renamed.exitCode).toBe(0)
    expect(renamed.output).toContain('\n     Goldens  11 matched | 1 written | 1 obsolete\n')
    expect(renamed.output).toContain(
      'Obsolete goldens (no test asks for them; run vitest -u to remove them):\n  .reagent/golden/test/renamed.test.ts/researches_volcanoes.trace.json\n',
    )

    const filtered = await runVitest(dir, { args: ['-u', '-t', 'glaciers'], env: { RENAMED: '1' } })
    expect(filtered.exitCode).toBe(0)
    expect(existsSync(stale)).toBe(true)

    const updated = await runVitest(dir, { args: ['-u'], env: { RENAMED: '1' } })
    expect(updated.exitCode).toBe(0)
    expect(updated.output).toContain('  removed obsolete golden .reagent/golden/test/renamed.test.ts/researches_volcanoes.trace.json\n')
    expect(existsSync(stale)).toBe(false)
  }, 60_000)
})
