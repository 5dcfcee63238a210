/**
 * The daily loop of a suite of conversations (fixtures/vitest-conversations/):
 * five files of simulated users talking to a support agent, a repeat() and the
 * agentSession fixture, run by vitest in five workers. The first run records
 * both sides against a local model server; the recordings are committed; then
 * the suite runs offline under CI (the server gone), in threads and in forks
 * without isolation, and again: every test passes, and `git status` stays clean.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const REPO_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url))
const TESTS = 'Tests  12 passed (12)'

function recordings(dir: string): string[] {
  return (readdirSync(join(dir, '.reagent'), { recursive: true }) as string[]).filter((file) => file.endsWith('.recording.json')).sort()
}

describe('a suite of conversations in parallel workers: recorded once, committed, then offline under CI', () => {
  let dir: string
  let remove: () => void
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' })
  beforeAll(() => {
    ;({ dir, remove } = copyFixture('vitest-conversations', 'suite'))
    symlinkSync(join(REPO_MODULES, 'openai'), join(dir, 'node_modules', 'openai'), 'dir')
    git('init', '-q')
    git('add', '-A')
    git('commit', '-q', '-m', 'the suite')
  })
  afterAll(() => remove())

  it("records each conversation's agent and user once, in five worker threads", async () => {
    const { exitCode, output } = await runVitest(dir, { args: ['--pool=threads', '--maxWorkers=5'] })
    expect(output).toContain(TESTS)
    expect(exitCode).toBe(0)
    // Ten conversations, three repeated runs and the fixture's: each an agent recording and a user recording.
    const files = recordings(dir)
    expect(files).toHaveLength(28)
    expect(files.filter((file) => file.endsWith('support___user.recording.json'))).toHaveLength(10)
    git('add', '-A')
    git('commit', '-q', '-m', 'recordings')
  }, 120_000)

  for (const pool of ['threads', 'forks', 'threads']) {
    it(`replays every conversation offline under CI (${pool}, five workers, isolate: false), and leaves git status clean`, async () => {
      const { exitCode, output } = await runVitest(dir, { args: [`--pool=${pool}`, '--maxWorkers=5', '--no-isolate'], env: { CI: 'true', DESK_OFFLINE: '1' } })
      expect(output).toContain(TESTS)
      expect(output).not.toContain('Warning')
      expect(exitCode).toBe(0)
      expect(git('status', '--porcelain')).toBe('')
    }, 120_000)
  }
})
