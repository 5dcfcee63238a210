/**
 * The reporter under GitHub Actions, as a workflow step runs it: vitest as a
 * child process over the sample suite of fixtures/vitest-results (a failing
 * agent test among passing, skipped and repeated ones) with
 * GITHUB_ACTIONS=true and GITHUB_STEP_SUMMARY pointing at a file: the job
 * summary appended to it, the `::error` annotations in the output.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const COMMIT = '0123456789abcdef0123456789abcdef01234567'

function sample(): { dir: string; summary: string; env: Record<string, string> } {
  // The suite in a folder of a "repository" (GITHUB_WORKSPACE): annotations name files from the repository's root.
  const project = copyFixture('vitest-results', 'agents')
  onTestFinished(() => project.remove())
  const summary = join(dirname(project.dir), 'step-summary.md')
  writeFileSync(summary, '## An earlier step\n\n')
  const env = {
    REAGENT_UPDATE: 'new',
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_WORKSPACE: dirname(project.dir),
    GITHUB_SHA: COMMIT,
    GITHUB_REF_NAME: 'main',
    GITHUB_HEAD_REF: '',
  }
  return { dir: project.dir, summary, env }
}

const SUMMARY = [
  '## An earlier step',
  '',
  '### reagent-flow: agent tests',
  '',
  '❌ **1 of 5 agent tests failed** · 7 runs · 5210 tokens · $0.0035 spent · commit 0123456 on main',
  '',
  '| test | outcome | runs | tokens | USD | turns | tool calls | golden |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  '| refund agent > checks the policy first<br>test/refund.test.ts:12 | ❌ failed | 1 | 420 | $0.000090 | 3 | 2 | – |',
  '| reaches its goal<br>test/goal.test.ts:5 | ✅ passed | 1 | 1570 | $0.0027 | 4 | 3 | – |',
  '| refund agent > refunds order 42<br>test/refund.test.ts:7 | ✅ passed | 1 | 560 | $0.00012 | 4 | 3 | written |',
  '| refund agent > hands billing to a sub-agent<br>test/refund.test.ts:21 | ✅ passed | 1 | 1120 | $0.00024 | 8 | 6 | – |',
  '| refunds reliably<br>test/repeat.test.ts:6 | ✅ passed | 3 (100% passed) | 1540 | $0.00033 | 11 | 8 | – |',
  '',
  '**Failures**',
  '',
  '- refund agent > checks the policy first (test/refund.test.ts:12): Flow mismatch: expected "check\\_policy" at position 1, got "issue\\_refund". ' +
    'Pattern: \\["lookup\\_order", "check\\_policy", "issue\\_refund"\\], actual: \\["lookup\\_order", "issue\\_refund"\\]',
  '',
  '',
].join('\n')

const FAILURE =
  'Flow mismatch: expected "check_policy" at position 1, got "issue_refund". Pattern: ["lookup_order", "check_policy", "issue_refund"], actual: ["lookup_order", "issue_refund"]'

function annotations(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('::'))
}

function usePlugin(dir: string, options: string): void {
  writeFileSync(
    join(dir, 'vitest.config.ts'),
    `import { reagentFlow } from 'reagent-flow/vitest/plugin'\nimport { defineConfig } from 'vitest/config'\nexport default defineConfig({ plugins: [reagentFlow(${options})] })\n`,
  )
}

describe('the reporter under GitHub Actions', () => {
  it('appends the agent tests to the job summary and annotates the failing one at its line, from the repository root', async () => {
    const { dir, summary, env } = sample()
    const { exitCode, output } = await runVitest(dir, { env })
    expect(exitCode).toBe(1)
    expect(readFileSync(summary, 'utf8')).toBe(SUMMARY)
    expect(annotations(output)).toEqual([
      `::error file=agents/test/refund.test.ts,line=12,title=agent test failed%3A refund agent > checks the policy first::${FAILURE}`,
    ])
  })

  it("with the plugin and no reporters named, leaves the annotations to vitest's github-actions reporter, and records each test's line", async () => {
    const { dir, summary, env } = sample()
    usePlugin(dir, '')
    const { exitCode, output } = await runVitest(dir, { env })
    expect(exitCode).toBe(1)
    // vitest's own annotation, at the failing assertion (line 14); none of ours beside it.
    expect(annotations(output)).toEqual([
      expect.stringMatching(
        /^::error file=.*\/agents\/test\/refund\.test\.ts,title=test\/refund\.test\.ts > refund agent > checks the policy first,line=14,column=15::Error: Flow mismatch/,
      ),
    ])
    // The plugin turned on includeTaskLocation: the summary (after vitest's own) knows each test's line.
    expect(readFileSync(summary, 'utf8')).toContain(SUMMARY.slice('## An earlier step\n\n'.length))
    expect(readFileSync(join(dir, '.reagent', 'results', 'results.json'), 'utf8')).toContain('"line": 12,')
  })

  it('githubActions: false writes no summary and no annotation, and leaves includeTaskLocation off', async () => {
    const { dir, summary, env } = sample()
    usePlugin(dir, '{ githubActions: false }')
    const { exitCode, output } = await runVitest(dir, { env })
    expect(exitCode).toBe(1)
    expect(output).not.toContain('agent test failed')
    expect(readFileSync(summary, 'utf8')).not.toContain('reagent-flow')
    expect(readFileSync(join(dir, '.reagent', 'results', 'results.json'), 'utf8')).toContain('"line": null,')
  })
})
