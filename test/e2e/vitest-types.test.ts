/**
 * The matchers' types as a user's TypeScript sees them: `tsc` run over the
 * sample project of fixtures/vitest-types/ (strict, no "types" entry), the
 * package resolved by its public name to the built dist/. Then vitest runs
 * it, so what type-checks also passes. Last, the import moves into
 * `setupFiles: ['reagent-flow/vitest']`, where no file imports the package,
 * to show the one line TypeScript then needs.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copySampleProject, runVitest } from '../helpers/vitest-project.js'

const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))

function tsc(dir: string): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' })
  return { code: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('the matchers in a TypeScript project', () => {
  let project: ReturnType<typeof copySampleProject>
  beforeAll(() => {
    project = copySampleProject('vitest-types')
  })
  afterAll(() => project.remove())

  it('type-check with reagent-flow/vitest imported by a setup file alone: no "types" entry, s.output typed, a value that is not a run an error', () => {
    // Each @ts-expect-error in test/run.test.ts must meet an error, or tsc fails on it.
    expect(tsc(project.dir)).toEqual({ code: 0, output: '' })
  })

  it('run as they type-check', async () => {
    const { exitCode, output } = await runVitest(project.dir)
    expect(output).toContain('      Tests  2 passed (2)')
    expect(exitCode).toBe(0)
  })

  it('need one line when the package itself is in setupFiles, so that no file imports it', () => {
    rmSync(join(project.dir, 'test', 'setup.ts'))
    const config = join(project.dir, 'vitest.config.ts')
    const original = readFileSync(config, 'utf8')
    writeFileSync(config, original.replace("setupFiles: ['./test/setup.ts']", "setupFiles: ['reagent-flow/vitest']"))
    const { code, output } = tsc(project.dir)
    expect(code).toBe(2)
    expect(output).toContain(
      "test/run.test.ts(25,13): error TS2339: Property 'toHaveFinalAnswer' does not exist on type 'Assertion<ClosedSession<{ refunded: boolean; answer: string; }>>'.",
    )

    writeFileSync(config, `/// <reference types="reagent-flow/vitest" />\n${readFileSync(config, 'utf8')}`)
    expect(tsc(project.dir)).toEqual({ code: 0, output: '' })
  })
})
