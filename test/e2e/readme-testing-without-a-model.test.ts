/**
 * The examples of the README's "Testing without a model" section, as a user
 * runs them: each is a test file of a vitest project (in a temporary
 * directory, reagent-flow resolved by its public name to the built dist/),
 * run by vitest as a child process. Each is also kept in test/fake/readme/
 * (as `.example.ts`, so `npm run typecheck` compiles it); the README shows
 * those files byte for byte.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { readmeExamples as sectionExamples, scratchProject as scratch } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLES = join(REPO, 'test', 'fake', 'readme')

const readmeExamples = (): Map<string, string> => sectionExamples('Testing without a model')
const scratchProject = (): string => scratch('reagent-fake-readme-')

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('shows, byte for byte, the example files of test/fake/readme/, one per SDK', () => {
  const examples = readmeExamples()
  const files = readdirSync(EXAMPLES).map((file) => `test/${file.replace(/\.example\.ts$/, '.test.ts')}`)
  expect([...examples.keys()].sort()).toEqual(files.sort())
  for (const [path, code] of examples) expect(code).toBe(readFileSync(join(EXAMPLES, basename(path).replace(/\.test\.ts$/, '.example.ts')), 'utf8'))
})

it('runs every example as a passing vitest test file', async () => {
  project = scratchProject()
  for (const [path, code] of readmeExamples()) {
    mkdirSync(join(project, dirname(path)), { recursive: true })
    writeFileSync(join(project, path), code)
  }
  const { exitCode, output } = await runVitest(project)
  expect(output).toMatch(/Test Files {2}4 passed \(4\)\n {6}Tests {2}6 passed \(6\)/)
  expect(exitCode).toBe(0)
})
