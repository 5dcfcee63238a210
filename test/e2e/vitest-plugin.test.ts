/**
 * `plugins: [reagentFlow()]` in a real vitest project (fixtures/vitest-plugin/),
 * run by vitest as a child process: the one line adds the setup file and the
 * reporter, the goldens a run writes are listed once at its end (as vitest's
 * snapshots are, with no line of each test's own), obsolete goldens are
 * reported and `-u` removes them. Each step needs the one before, on one copy.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const VOLCANOES = '.reagent/golden/test/research.test.ts/researches_volcanoes.trace.json'
const GLACIERS = '.reagent/golden/test/research.test.ts/researches_glaciers.trace.json'

describe('a project set up with plugins: [reagentFlow()]', () => {
  let dir: string
  let remove: () => void
  beforeAll(() => void ({ dir, remove } = copyFixture('vitest-plugin', 'project')))
  afterAll(() => remove())

  it('lists the goldens it wrote once, in the summary, and no test prints a line of its own for them', async () => {
    const { exitCode, output } = await runVitest(dir)
    expect([exitCode, output.includes('Tests  2 passed (2)')]).toEqual([0, true])
    expect(output).toContain(`\n     Goldens  2 written\n  written ${VOLCANOES}\n  written ${GLACIERS}\n  Review these goldens and commit them.\n`)
    expect(output).not.toContain('Golden baseline for')
    expect([existsSync(join(dir, VOLCANOES)), existsSync(join(dir, GLACIERS))]).toEqual([true, true])
  })

  it('compares with them on the next run', async () => {
    const { exitCode, output } = await runVitest(dir)
    expect([exitCode, output.match(/\n {5}Goldens {2}.*\n/g)]).toEqual([0, ['\n     Goldens  2 matched\n']])
  })

  it('uses the setup file and the reporter once when the config also names them', async () => {
    const { exitCode, output } = await runVitest(dir, { env: { ALSO_LISTED: '1' } })
    expect([exitCode, output.match(/\n {5}Goldens {2}.*\n/g)]).toEqual([0, ['\n     Goldens  2 matched\n']])
  })

  it('reports the golden of a renamed test as obsolete, and removes it with -u', async () => {
    const renamed = await runVitest(dir, { env: { RENAMED: '1' } })
    expect(renamed.exitCode).toBe(0)
    expect(renamed.output).toContain(
      '\n     Goldens  1 matched | 1 written | 1 obsolete\n' +
        '  written .reagent/golden/test/research.test.ts/researches_volcanoes__renamed.trace.json\n' +
        '  Review this golden and commit it.\n' +
        '\nObsolete goldens (no test asks for them; run vitest -u to remove them):\n' +
        `  ${VOLCANOES}\n`,
    )
    const updated = await runVitest(dir, { args: ['-u'], env: { RENAMED: '1' } })
    expect(updated.exitCode).toBe(0)
    expect(updated.output).toContain(`  removed obsolete golden ${VOLCANOES}\n`)
    expect(existsSync(join(dir, VOLCANOES))).toBe(false)
  })
})
