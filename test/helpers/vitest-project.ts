/**
 * A sample project of `fixtures/` (`vitest-project` by default), copied to a temporary
 * directory and run by vitest as a child process, as a user runs it.
 *
 * `reagent-flow` resolves there by its public name to this repository (its
 * built `dist/`), through `node_modules/reagent-flow`, and vitest to this
 * repository's copy, so the project and the package share one vitest.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const VITEST = join(REPO, 'node_modules', 'vitest', 'vitest.mjs')
/** A fresh copy of the sample project `fixtures/<sample>/`; `remove()` deletes it. */
export function copySampleProject(sample = 'vitest-project'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `reagent-${sample}-`))
  cpSync(join(REPO, 'fixtures', sample), dir, { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A fresh copy of `fixtures/<fixture>` as `<a new temporary folder>/<folder>`
 * (a folder of its own, so a run from its parent can be checked to leave the
 * parent as it was), with reagent-flow and vitest linked in; `remove()`
 * deletes the temporary folder.
 */
export function copyFixture(fixture: string, folder: string): { dir: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), `reagent-${fixture}-`))
  const dir = join(parent, folder)
  cpSync(join(REPO, 'fixtures', fixture), dir, { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir')
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) }
}

/** Variables of this test run that would change how the child behaves (its own vitest state, CI, update mode, GitHub Actions' summary and annotations). */
const INHERITED_OUT = /^(VITEST|CI$|REAGENT_|FORCE_COLOR$|NODE_OPTIONS$|GITHUB_ACTIONS$|GITHUB_STEP_SUMMARY$)/

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
