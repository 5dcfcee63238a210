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
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { readmeExamples, scratchProject, testReadmeExamples } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const SECTIONS = ['Faults and limits', 'Repeated runs', 'Golden variants']
const CLI = fileURLToPath(new URL('../../dist/src/cli/index.js', import.meta.url))

testReadmeExamples({ sections: SECTIONS, folder: 'test/readme-examples', tests: 9 })

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('takes the variants example through approve --add: the other behaviour fails, is added, then both pass', async () => {
  project = scratchProject('reagent-variants-story-')
  for (const [path, code] of SECTIONS.flatMap((heading) => [...readmeExamples(heading)])) {
    mkdirSync(join(project, dirname(path)), { recursive: true })
    writeFileSync(join(project, path), code)
  }
  const first = await runVitest(project)
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
