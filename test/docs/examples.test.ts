/**
 * The documentation runs as written: every TypeScript block of README.md
 * and docs/ is a whole file (imports included) kept in examples/<page>/,
 * compiled by `npm run typecheck` with the repository's strict settings, and
 * run here as a user runs it, in a project of its own where reagent-flow
 * resolves by its public name: test files by vitest, scripts/ by Node.
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  codeBlocks,
  DEFAULT_VITEST_CONFIG,
  docPages,
  exampleFolder,
  filesUnder,
  namedPath,
  runScript,
  scratchProject,
  writeFiles,
  type DocPage,
} from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

/** Pages whose examples need more than a project to run in; each is run by the test named. */
const RUN_ELSEWHERE: Readonly<Record<string, string>> = {
  replay: 'test/e2e/docs-replay.test.ts: recorded against a canned OpenAI server, then replayed with the server stopped',
}

const pages = docPages()

describe.each(pages)('$file', (page) => {
  it('shows only whole TypeScript files, each named on its first line and kept byte for byte in its examples folder', () => {
    const shown = new Map<string, string>()
    for (const block of codeBlocks(page)) {
      expect(block.lang, `${page.file}:${block.line}: write TypeScript and JavaScript as \`\`\`ts`).not.toMatch(/^(typescript|tsx|js|javascript|mjs)$/)
      if (block.lang !== 'ts') continue
      const path = namedPath(block)
      expect(path, `${page.file}:${block.line}: a ts block starts with the line "// <its path>", e.g. "// test/refund-agent.test.ts"`).toBeDefined()
      expect(shown.has(path!), `${page.file}:${block.line}: ${path} is shown twice`).toBe(false)
      shown.set(path!, block.code)
    }
    const kept = filesUnder(exampleFolder(page))
    expect([...kept.keys()].sort(), `the files of examples/${page.id}/ are the ts blocks of ${page.file}`).toEqual([...shown.keys()].sort())
    for (const [path, code] of shown) expect(code, `${page.file}: ${path} differs from examples/${page.id}/${path}`).toBe(kept.get(path))
  })
})

/** A page whose examples hold something to run: test files or scripts. */
function runnable(page: DocPage): { tests: string[]; scripts: string[]; config: string | undefined } {
  const files = filesUnder(exampleFolder(page))
  const paths = [...files.keys()]
  return {
    tests: paths.filter((path) => path.endsWith('.test.ts')),
    scripts: paths.filter((path) => path.startsWith('scripts/')),
    config: files.get('vitest.config.ts'),
  }
}

describe('the examples, run', () => {
  const projects: string[] = []
  afterAll(() => {
    for (const dir of projects) rmSync(dir, { recursive: true, force: true })
  })
  const toRun = pages.filter((page) => RUN_ELSEWHERE[page.id] === undefined).map((page) => ({ page, ...runnable(page) }))

  it.concurrent.each(toRun.filter(({ tests }) => tests.length > 0))(
    '$page.file: its test files pass under vitest',
    { timeout: 180_000 },
    async ({ page, tests, config }) => {
      const dir = scratchProject(`reagent-docs-${page.id}-`)
      projects.push(dir)
      writeFiles(dir, filesUnder(exampleFolder(page)))
      if (config === undefined) writeFiles(dir, new Map([['vitest.config.ts', DEFAULT_VITEST_CONFIG]]))
      const { exitCode, output } = await runVitest(dir, { env: { NODE_OPTIONS: '--no-warnings' } })
      expect(output).toMatch(new RegExp(`Test Files {2}${tests.length} passed \\(${tests.length}\\)\n`))
      expect(output).not.toMatch(/skipped|todo|failed/)
      expect(exitCode).toBe(0)
    },
  )

  it.concurrent.each(toRun.flatMap(({ page, scripts }) => scripts.map((script) => ({ page, script }))))(
    '$page.file: $script runs to its end',
    { timeout: 120_000 },
    async ({ page, script }) => {
      const dir = scratchProject(`reagent-docs-${page.id}-`)
      projects.push(dir)
      writeFiles(dir, filesUnder(exampleFolder(page)))
      const { code, output } = await runScript(dir, script)
      expect(output).not.toContain('Error')
      expect(code).toBe(0)
      expect(existsSync(join(dir, script))).toBe(true)
    },
  )
})
