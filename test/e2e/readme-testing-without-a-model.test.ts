/**
 * The examples of the README's "Testing without a model" section, as a user
 * runs them: each is a test file of a vitest project (in a temporary
 * directory, reagent-flow resolved by its public name to the built dist/),
 * run by vitest as a child process. Each is also kept in test/fake/readme/
 * (as `.example.ts`, so `npm run typecheck` compiles it); the README shows
 * those files byte for byte.
 */
import { rmSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { exampleFiles, exampleProject, readmeExamples } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('shows, byte for byte, the example files of test/fake/readme/, one per SDK', () => {
  expect(readmeExamples('Testing without a model')).toEqual(exampleFiles('test/fake/readme'))
})

it('runs every example as a passing vitest test file', async () => {
  project = exampleProject(readmeExamples('Testing without a model'))
  const { exitCode, output } = await runVitest(project)
  expect(output).toMatch(/Test Files {2}4 passed \(4\)\n {6}Tests {2}6 passed \(6\)/)
  expect(exitCode).toBe(0)
})
