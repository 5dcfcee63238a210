/**
 * README code blocks that are whole test files, as a user copies them: a
 * block that starts with a `// test/<name>.test.ts` line. Each is also kept
 * as a file (`<name>.example.ts`, so `npm run typecheck` compiles it), which
 * the README shows byte for byte, and runs in a scratch vitest project.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { runVitest } from './vitest-project.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** The test-file blocks of the README section headed `## <heading>` (up to the next `## `), by path. */
export function readmeExamples(heading: string): Map<string, string> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const start = readme.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`)
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
  const examples = new Map<string, string>()
  for (const [, code] of section.matchAll(/```ts\n(\/\/ (test\/[\w.-]+\.test\.ts)\n[\s\S]*?)```/g)) {
    examples.set(code!.slice(3, code!.indexOf('\n')), code!)
  }
  return examples
}

/** A vitest project in a temporary directory whose node_modules are this repository's, plus reagent-flow itself (its dist/). */
export function scratchProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(dir, 'node_modules'))
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (!entry.startsWith('.')) symlinkSync(join(REPO, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir')
  }
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: prefix.replace(/-$/, ''), private: true, type: 'module' }))
  writeFileSync(join(dir, 'vitest.config.ts'), "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { setupFiles: ['reagent-flow/vitest'] } })\n")
  return dir
}

/**
 * The two tests of a README's examples: the blocks of `sections` are the
 * files of `folder` (relative to the repository) byte for byte, and they pass
 * as test files of a scratch vitest project, `tests` tests in all.
 */
export function testReadmeExamples({ sections, folder, tests }: { sections: readonly string[]; folder: string; tests: number }): void {
  const examples = (): Map<string, string> => new Map(sections.flatMap((heading) => [...readmeExamples(heading)]))
  const dir = join(REPO, folder)
  let project: string | undefined
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true })
  })

  it(`shows, byte for byte, the example files of ${folder}/`, () => {
    const shown = examples()
    const files = readdirSync(dir).map((file) => `test/${file.replace(/\.example\.ts$/, '.test.ts')}`)
    expect([...shown.keys()].sort()).toEqual(files.sort())
    for (const [path, code] of shown) expect(code).toBe(readFileSync(join(dir, basename(path).replace(/\.test\.ts$/, '.example.ts')), 'utf8'))
  })

  it('runs every example as a passing vitest test file', async () => {
    project = scratchProject(`reagent-${basename(dirname(dir))}-readme-`)
    const shown = examples()
    for (const [path, code] of shown) {
      mkdirSync(join(project, dirname(path)), { recursive: true })
      writeFileSync(join(project, path), code)
    }
    const { exitCode, output } = await runVitest(project)
    expect(output).toMatch(new RegExp(`Test Files {2}${shown.size} passed \\(${shown.size}\\)\n {6}Tests {2}${tests} passed \\(${tests}\\)`))
    expect(exitCode).toBe(0)
  })
}
