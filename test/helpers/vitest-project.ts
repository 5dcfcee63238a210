/**
 * The sample project of `fixtures/vitest-project/`, copied to a temporary
 * directory and run by vitest as a child process, as a user runs it.
 *
 * `reagent-flow` resolves there by its public name to this repository (its
 * built `dist/`), through `node_modules/reagent-flow`, and vitest to this
 * repository's copy, so the project and the package share one vitest.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const VITEST = join(REPO, 'node_modules', 'vitest', 'vitest.mjs')
const SAMPLE = join(REPO, 'fixtures', 'vitest-project')

/** A fresh copy of the sample project; `remove()` deletes it. */
export function copySampleProject(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-vitest-project-'))
  cpSync(SAMPLE, dir, { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * An empty project whose node_modules are this repository's (every package,
 * reagent-flow itself by its public name), with `reagent-flow/vitest` in its
 * setupFiles: for running the README's examples as a user would.
 */
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

/** Variables of this test run that would change how the child behaves (its own vitest state, CI, update mode). */
const INHERITED_OUT = /^(VITEST|CI$|REAGENT_|FORCE_COLOR$|NODE_OPTIONS$)/

export interface VitestRun {
  exitCode: number | null
  /** stdout and stderr, as a terminal would show them (colour off). */
  output: string
}

/** `vitest run [...args]` in `dir`, with `env` added to a clean environment. */
export function runVitest(dir: string, { args = [], env = {} }: { args?: string[]; env?: Record<string, string> } = {}): Promise<VitestRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !INHERITED_OUT.test(key)))
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { cwd: dir, env: { ...base, NO_COLOR: '1', ...env } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (exitCode) => resolve({ exitCode, output }))
  })
}
