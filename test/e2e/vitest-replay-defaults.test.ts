/**
 * Record and replay defaults set once for a suite, in its vitest config
 * (fixtures/vitest-replay-defaults/: `test.provide.reagentFlow`), run as a
 * child process in one worker without isolation: REAGENT_REPLAY comes before
 * them, they apply to a session with no options, a session's own option
 * comes before them; and `prune` drops a recorded call no longer made, in
 * the reporter's summary. Each run needs the previous one's recordings.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const RECORDING = '.reagent/test/project-defaults.test.ts/takes_replay__replayTools_and_strict_from_the_vitest_config.recording.json'

describe('record and replay defaults in the vitest config', () => {
  let dir: string
  let remove: () => void
  beforeAll(() => void ({ dir, remove } = copyFixture('vitest-replay-defaults', 'project')))
  afterAll(() => remove())

  const toolRuns = (): string[] =>
    (JSON.parse(readFileSync(join(dir, RECORDING), 'utf8')) as { scopes: Array<{ steps: Array<{ input: string }> }> }).scopes[0]!.steps.map(
      (step) => step.input,
    )

  it('REAGENT_REPLAY comes before them: the suite records', async () => {
    const { exitCode, output } = await runVitest(dir, { env: { REAGENT_REPLAY: 'record', STAMP: '1' } })
    expect(output).toContain('Tests  2 passed (2)')
    expect(exitCode).toBe(0)
    expect(toolRuns()).toEqual(['a', 'b'])
  })

  it('a session with no options of its own replays its tools strictly, as the config says; a session option comes first', async () => {
    const { exitCode, output } = await runVitest(dir, { env: { STAMP: '2' } })
    expect(output).toContain('Tests  2 passed (2)')
    expect(exitCode).toBe(0)
  })

  it('prune drops the recorded call no longer made, and the summary says so', async () => {
    const { exitCode, output } = await runVitest(dir, { env: { REAGENT_REPLAY: 'prune', STAMP: '3' } })
    expect(output).toContain('Tests  2 passed (2)')
    expect(output).toContain(`\n  Recordings  1 pruned (1 recorded call no longer made)\n  pruned 1 recorded call from ${RECORDING}\n`)
    expect(exitCode).toBe(0)
    expect(toolRuns()).toEqual(['a'])
  })
})
