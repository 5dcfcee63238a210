/**
 * The README's examples of the run helpers (section "Asserting") and of the
 * matchers users reach for (section "vitest"), as a user runs them: each is
 * kept in test/vitest/readme/ and shown byte for byte in the README, and
 * runs as a test file of a vitest project, reagent-flow resolved by its
 * public name to the built dist/.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { readmeExamples, scratchProject } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const EXAMPLES = fileURLToPath(new URL('../vitest/readme/', import.meta.url))

const examples = (): Map<string, string> => new Map([...readmeExamples('Asserting'), ...readmeExamples('vitest')])

let project: string | undefined
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

it('shows, byte for byte, the example files of test/vitest/readme/', () => {
  const shown = examples()
  const files = readdirSync(EXAMPLES).map((file) => `test/${file.replace(/\.example\.ts$/, '.test.ts')}`)
  expect([...shown.keys()].sort()).toEqual(files.sort())
  for (const [path, code] of shown) expect(code).toBe(readFileSync(join(EXAMPLES, basename(path).replace(/\.test\.ts$/, '.example.ts')), 'utf8'))
})

it('runs every example as a passing vitest test file', async () => {
  project = scratchProject('reagent-matchers-readme-')
  for (const [path, code] of examples()) {
    mkdirSync(join(project, dirname(path)), { recursive: true })
    writeFileSync(join(project, path), code)
  }
  const { exitCode, output } = await runVitest(project)
  expect(output).toMatch(/Test Files {2}3 passed \(3\)\n {6}Tests {2}3 passed \(3\)/)
  expect(exitCode).toBe(0)
})
