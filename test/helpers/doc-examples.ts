/**
 * The documentation's TypeScript, as a user copies it: every ```ts block of
 * README.md and docs/ is a whole file whose first line names it
 * (`// test/refund-agent.test.ts`), kept byte for byte as
 * `examples/<page>/<that path>` (compiled by `npm run typecheck`), and run
 * in a scratch project where reagent-flow resolves by its public name.
 *
 * A page's id is its path without `docs/` and `.md`, `/` as `-`
 * (`docs/adapters/openai.md` is `adapters-openai`); README.md is `readme`.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** A page of the documentation: its file (relative to the repository) and id. */
export interface DocPage {
  file: string
  id: string
}

/** A fenced code block: its language, text (without the fences) and first line number in the page. */
export interface CodeBlock {
  lang: string
  code: string
  line: number
}

function markdownFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'decisions' ? [] : markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

/** README.md and every page under docs/ but the decision notes (a record of why, not a guide). */
export function docPages(): DocPage[] {
  const pages = markdownFiles('docs')
    .sort()
    .map((file) => ({ file, id: file.slice('docs/'.length, -'.md'.length).replaceAll('/', '-') }))
  return [{ file: 'README.md', id: 'readme' }, ...pages]
}

/** The fenced code blocks of a page, in order. */
export function codeBlocks(page: DocPage): CodeBlock[] {
  const lines = readFileSync(join(REPO, page.file), 'utf8').split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)/.exec(lines[i]!)
    if (open === null) continue
    const fence = open[1]!
    let end = i + 1
    while (end < lines.length && lines[end] !== fence) end++
    blocks.push({ lang: open[2]!, code: `${lines.slice(i + 1, end).join('\n')}\n`, line: i + 1 })
    i = end
  }
  return blocks
}

/** The path a TypeScript block names on its first line (`// test/x.test.ts`), or undefined. */
export function namedPath(block: CodeBlock): string | undefined {
  return /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|d\.ts))\n/.exec(block.code)?.[1]
}

/** The example folder of a page. */
export function exampleFolder(page: DocPage): string {
  return join(REPO, 'examples', page.id)
}

/** The example files of the page with id `id`, by path. */
export function examplesOf(id: string): Map<string, string> {
  return filesUnder(join(REPO, 'examples', id))
}

/** Every file under `dir`, by its path relative to `dir` (`/`-separated). */
export function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  const visit = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) visit(path)
      else files.set(relative(dir, path).split('\\').join('/'), readFileSync(path, 'utf8'))
    }
  }
  if (isDirectory(dir)) visit(dir)
  return files
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * A project in a temporary directory whose node_modules are this
 * repository's, plus reagent-flow itself by its public name (its dist/):
 * what a user has after `npm i -D reagent-flow` next to their SDKs.
 */
export function scratchProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(dir, 'node_modules'))
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (!entry.startsWith('.')) symlinkSync(join(REPO, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir')
  }
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: prefix.replace(/-$/, ''), private: true, type: 'module' }))
  return dir
}

/** The vitest config a project gets when its page shows none: reagent-flow's plugin, as the README's first steps set it up. */
export const DEFAULT_VITEST_CONFIG =
  "import { reagentFlow } from 'reagent-flow/vitest/plugin'\nimport { defineConfig } from 'vitest/config'\nexport default defineConfig({ plugins: [reagentFlow()] })\n"

/** Writes `files` (by relative path) under `dir`. */
export function writeFiles(dir: string, files: ReadonlyMap<string, string>): void {
  for (const [path, code] of files) {
    mkdirSync(join(dir, dirname(path)), { recursive: true })
    writeFileSync(join(dir, path), code)
  }
}

/** `node --import tsx <script> ...args` in `dir`, in a clean environment plus `env`: how a user runs a TypeScript script. */
export function runScript(
  dir: string,
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|CI$|REAGENT_|NODE_OPTIONS$)/.test(key)))
  const child = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', script, ...args], { cwd: dir, env: { ...base, NO_COLOR: '1', ...env } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}
