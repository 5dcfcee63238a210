/**
 * The report reporter as a user adds it: vitest run as a child process over
 * the sample project, with `reagent-flow/vitest/report` beside the default
 * reporter, writes the HTML report of the project's trace directory.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it, onTestFinished } from 'vitest'
import { copySampleProject, runVitest } from '../helpers/vitest-project.js'

it("a vitest run writes the HTML report of the trace directory with the reagent-flow/vitest/reporter's report option", async () => {
  const project = copySampleProject()
  onTestFinished(() => project.remove())
  writeFileSync(
    join(project.dir, 'vitest.report.config.ts'),
    [
      "import { defineConfig } from 'vitest/config'",
      'export default defineConfig({',
      "  test: { setupFiles: ['reagent-flow/vitest'], reporters: ['default', ['reagent-flow/vitest/reporter', { report: 'artifacts/agents.html' }]] },",
      '})',
      '',
    ].join('\n'),
  )
  const { exitCode, output } = await runVitest(project.dir, { args: ['--config', 'vitest.report.config.ts'], env: { REAGENT_UPDATE: 'new' } })
  expect(exitCode).toBe(0)
  const out = join(project.dir, 'artifacts', 'agents.html')
  expect(output).toContain(`reagent-flow report: ${out} · 2 runs, 1 golden\n`)
  const html = readFileSync(out, 'utf8')
  expect(html).toContain('"name":"refund agent \\u003e refunds order 42"')
  expect(html).toContain('<div id="app" data-source="embedded">')
})
