/**
 * The URL of every module a piece of code loads (ESM and CommonJS alike),
 * through a module resolve hook in a fresh Node process. Used by the tests of
 * what an import loads (test/e2e/optional-peers.test.ts) and by the bench's
 * count of our modules (bench/suites/13-import.ts); it cleans up after itself,
 * so it needs no test runner.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function modulesLoadedBy(code: string, cwd: string | URL): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-modules-'))
  try {
    const log = join(dir, 'loaded.txt')
    writeFileSync(log, '')
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs'
       let log
       export function initialize(data) { log = data.log }
       export async function resolve(specifier, context, next) {
         const result = await next(specifier, context)
         appendFileSync(log, result.url + '\\n')
         return result
       }`,
    )
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url, { data: { log: ${JSON.stringify(log)} } })`,
    )
    execFileSync(process.execPath, ['--no-warnings', '--import', join(dir, 'register.mjs'), '--input-type=module', '-e', code], { cwd, encoding: 'utf8' })
    return readFileSync(log, 'utf8').split('\n').filter(Boolean)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
