/**
 * The golden-variants example of docs/goldens.md (examples/goldens/) taken
 * through its story, as a user lives it: written, failing on the agent's
 * other behaviour, `approve --add`, then passing on either behaviour.
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { DEFAULT_VITEST_CONFIG, examplesOf, scratchProject, writeFiles } from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const CLI = fileURLToPath(new URL('../../dist/src/cli/index.js', import.meta.url))

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('takes the variants example through approve --add: the other behaviour fails, is added, then both pass', async () => {
  project = scratchProject('reagent-variants-story-')
  writeFiles(project, examplesOf('goldens'))
  writeFiles(project, new Map([['vitest.config.ts', DEFAULT_VITEST_CONFIG]]))
  const first = await runVitest(project)
  expect(first.exitCode).toBe(0)

  const triage = ['test/triage.variants.test.ts', '-t', 'triages a broken order']
  const escalating = await runVitest(project, { args: triage, env: { CI: 'true', ESCALATE: '1' } })
  expect(escalating.exitCode).toBe(1)
  const run = '.reagent/test/triage.variants.test.ts/triages_a_broken_order.trace.json'
  expect(escalating.output).toContain(`add it as another accepted variant:\n  npx reagent-flow approve --add ${run}\n`)

  const added = spawnSync(process.execPath, [CLI, 'approve', '--add', run], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  expect(added.stdout).toMatch(
    /^updated {4}\.reagent\/golden\/test\/triage\.variants\.test\.ts\/triages_a_broken_order\.trace\.json {2}\(variant [12] of 2, added\)\n/,
  )
  for (const escalate of ['1', '0']) {
    const again = await runVitest(project, { args: triage, env: { CI: 'true', ESCALATE: escalate } })
    expect([escalate, again.exitCode]).toEqual([escalate, 0])
  }
})
