/**
 * `vitest run` as a child process, as a user's terminal runs it: the suites
 * that time whole vitest runs (the replayed agent suite, the setup file).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const REPO = join(import.meta.dirname, '../..')

/** `vitest run` in `dir` as a child process, with a clean environment and `env` (and `args`); its wall time. */
export function runVitest(
  dir: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<{ ms: number; code: number | null; output: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|CI$|REAGENT_|NODE_OPTIONS$)/.test(key)))
  const started = performance.now()
  const child = spawn(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], {
    cwd: dir,
    env: { ...base, NO_COLOR: '1', ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, output }))
  })
}
