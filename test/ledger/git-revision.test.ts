import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { gitRevision, revisionFromEnvironment } from '../../src/ledger/git-revision.js'
import { tempDir } from '../helpers/temp-dir.js'

afterEach(() => vi.unstubAllEnvs())

describe('gitRevision', () => {
  it('is empty in a directory outside any git repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-no-repo-'))
    try {
      expect(gitRevision(dir, {})).toEqual({})
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('is empty, at once, when git is not installed', () => {
    vi.stubEnv('PATH', tempDir())
    const started = performance.now()
    expect(gitRevision(tempDir(), {})).toEqual({})
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it("takes a pull request's branch on GitHub, not its merge ref", () => {
    expect(revisionFromEnvironment({ GITHUB_SHA: 'c0ffee', GITHUB_REF_NAME: '812/merge', GITHUB_HEAD_REF: 'fix/rounding' })).toEqual({
      commit: 'c0ffee',
      branch: 'fix/rounding',
    })
    expect(revisionFromEnvironment({ GITHUB_SHA: 'c0ffee', GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' })).toEqual({ commit: 'c0ffee', branch: 'main' })
  })

  it('names no revision when no CI variable names a commit', () => {
    expect(revisionFromEnvironment({ GITHUB_REF_NAME: 'main', CI_COMMIT_SHA: ' ' })).toBeUndefined()
  })

  it("completes a CI's commit with the branch git names when the CI leaves it out, and asks git once per directory", () => {
    const repo = tempDir()
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
    git('init', '-q', '-b', 'trunk')
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first')
    const head = git('rev-parse', 'HEAD')
    expect(gitRevision(repo, { GIT_COMMIT: 'c0ffee' })).toEqual({ commit: 'c0ffee', branch: 'trunk' })
    expect(gitRevision(repo, {})).toEqual({ commit: head, branch: 'trunk' })
    git('checkout', '-q', '-b', 'later')
    expect(gitRevision(repo, {})).toEqual({ commit: head, branch: 'trunk' })
  })

  it('names no branch for a detached HEAD', () => {
    const repo = tempDir()
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
    git('init', '-q', '-b', 'trunk')
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first')
    git('checkout', '-q', '--detach')
    expect(gitRevision(repo, {})).toEqual({ commit: git('rev-parse', 'HEAD') })
  })
})
