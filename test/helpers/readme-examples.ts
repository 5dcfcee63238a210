/**
 * The README's example test files, as a user runs them: each code block of a
 * section that starts with a `// test/<name>.test.ts` line is a test file.
 * Each is also kept in the repository as `<name>.example.ts` (so `npm run
 * typecheck` compiles it), and the README must show those files byte for byte.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** The example test files of the README's `## <section>` sections, by path (`test/x.test.ts`). */
export function readmeExamples(...sections: string[]): Map<string, string> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const examples = new Map<string, string>()
  for (const section of sections) {
    const start = readme.indexOf(`\n## ${section}\n`)
    if (start < 0) throw new Error(`README.md has no section "## ${section}"`)
    const text = readme.slice(start, readme.indexOf('\n## ', start + 1))
    for (const [, code] of text.matchAll(/```ts\n(\/\/ (test\/[\w.-]+\.test\.ts)\n[\s\S]*?)```/g)) {
      examples.set(code!.slice(3, code!.indexOf('\n')), code!)
    }
  }
  return examples
}

/** The example files kept in `dir` (relative to the repository), by the path the README gives them. */
export function exampleFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const file of readdirSync(join(REPO, dir))) {
    if (file.endsWith('.example.ts')) files.set(`test/${basename(file, '.example.ts')}.test.ts`, readFileSync(join(REPO, dir, file), 'utf8'))
  }
  return files
}

/** A vitest project in a temporary directory whose node_modules are this repository's, plus reagent-flow itself, holding `tests`. */
export function exampleProject(tests: ReadonlyMap<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-readme-'))
  mkdirSync(join(dir, 'node_modules'))
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (!entry.startsWith('.')) symlinkSync(join(REPO, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir')
  }
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }))
  writeFileSync(join(dir, 'vitest.config.ts'), "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { setupFiles: ['reagent-flow/vitest'] } })\n")
  for (const [path, code] of tests) {
    mkdirSync(join(dir, dirname(path)), { recursive: true })
    writeFileSync(join(dir, path), code)
  }
  return dir
}
