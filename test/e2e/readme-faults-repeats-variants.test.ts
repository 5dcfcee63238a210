/**
 * The examples of the README's "Faults and limits", "Repeated runs" and
 * "Golden variants" sections, as a user runs them: test files of a vitest
 * project run by vitest as a child process, reagent-flow resolved by its
 * public name to the built dist/. Each is kept in test/readme-examples/ (as
 * `.example.ts`, compiled by `npm run typecheck`); the README shows those
 * files byte for byte. The golden-variants example is taken through its
 * story: written, failing on the other behaviour, `approve --add`, passing.
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { exampleFiles, exampleProject, readmeExamples } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const SECTIONS = ['Faults and limits', 'Repeated runs', 'Golden variants']
const CLI = fileURLToPath(new URL('../../dist/src/cli/index.js', import.meta.url))

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('shows, byte for byte, the example files of test/readme-examples/', () => {
  expect(readmeExamples(...SECTIONS)).toEqual(exampleFiles('test/readme-examples'))
})

it('runs every example as a passing vitest test file, and the variants example through approve --add', async () => {
  project = exampleProject(readmeExamples(...SECTIONS))
  const first = await runVitest(project)
  expect(first.output).toMatch(/Test Files {2}4 passed \(4\)\n {6}Tests {2}6 passed \(6\)/)
  expect(first.exitCode).toBe(0)

  const triage = ['test/triage.variants.test.ts', '-t', 'triages a broken order']
  const escalating = await runVitest(project, { args: triage, env: { CI: 'true', ESCALATE: '1' } })
  expect(escalating.exitCode).toBe(1)
  const run = '.reagent/test/triage.variants.test.ts/triages_a_broken_order.trace.json'
  expect(escalating.output).toContain(`add it as another accepted variant:\n  npx reagent-flow approve --add ${run}\n`)

  const added = spawnSync(process.execPath, [CLI, 'approve', '--add', run], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  expect(added.stdout).toMatch(/^updated {4}\.reagent\/golden\/test\/triage\.variants\.test\.ts\/triages_a_broken_order\.trace\.json {2}\(variant [12] of 2, added\)\n/)
  for (const escalate of ['1', '0']) {
    const again = await runVitest(project, { args: triage, env: { CI: 'true', ESCALATE: escalate } })
    expect([escalate, again.exitCode]).toEqual([escalate, 0])
  }
})
