/**
 * The git commit and branch of the code a run was recorded from, for the
 * ledger's run row, so runs of one CI build (or one branch) can be grouped.
 *
 * A CI system's own variables come first: a CI checkout is often a detached
 * HEAD (no branch for git to name) or a shallow merge commit, and the CI knows
 * what it built. Otherwise `git rev-parse` is asked, once per directory and
 * process, with a short timeout; no git, no repository or a slow disk leave
 * the fields out and never fail a run.
 *
 * Git is asked synchronously (a few milliseconds, once): run.begin is sent
 * the moment a session opens, so the run is in the ledger while the agent
 * works, and waiting for a child process would delay it.
 */
import { execFileSync } from 'node:child_process'

export interface GitRevision {
  commit?: string
  branch?: string
}

/** Each CI's commit and branch variables, in the order they are looked at; the first CI whose commit is set is the one. */
const CI_VARIABLES: ReadonlyArray<{ commit: string; branch: readonly string[] }> = [
  // GITHUB_HEAD_REF is the pull request's branch (GITHUB_REF_NAME is then "42/merge"); it is empty on a push.
  { commit: 'GITHUB_SHA', branch: ['GITHUB_HEAD_REF', 'GITHUB_REF_NAME'] },
  { commit: 'CI_COMMIT_SHA', branch: ['CI_COMMIT_REF_NAME'] },
  { commit: 'BUILDKITE_COMMIT', branch: ['BUILDKITE_BRANCH'] },
  { commit: 'CIRCLE_SHA1', branch: ['CIRCLE_BRANCH'] },
  { commit: 'GIT_COMMIT', branch: ['GIT_BRANCH'] },
]

const GIT_TIMEOUT_MS = 1000

/** The commit and branch the environment names (a CI's variables), if it names a commit. */
export function revisionFromEnvironment(env: NodeJS.ProcessEnv): GitRevision | undefined {
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim()
    return text === undefined || text === '' ? undefined : text
  }
  for (const ci of CI_VARIABLES) {
    const commit = value(ci.commit)
    if (commit === undefined) continue
    const branch = ci.branch.map(value).find((name) => name !== undefined)
    return branch === undefined ? { commit } : { commit, branch }
  }
  return undefined
}

/** `git rev-parse HEAD --abbrev-ref HEAD` in `dir`: the commit, and the branch unless HEAD is detached. Never throws. */
function askGit(dir: string): GitRevision {
  let stdout: string
  try {
    stdout = execFileSync('git', ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    })
  } catch {
    return {} // No git, not a repository, a repository without commits, or too slow.
  }
  const [commit, branch] = stdout.split('\n').map((line) => line.trim())
  const revision: GitRevision = {}
  if (commit !== undefined && /^[0-9a-f]{40,64}$/.test(commit)) revision.commit = commit
  if (branch !== undefined && branch !== '' && branch !== 'HEAD') revision.branch = branch
  return revision
}

const asked = new Map<string, GitRevision>()

/**
 * The revision of the code in `dir`: the CI's variables, completed by git
 * when they leave the branch out; git alone outside CI. Git runs at most once
 * per directory in a process.
 */
export function gitRevision(dir: string, env: NodeJS.ProcessEnv = process.env): GitRevision {
  const given = revisionFromEnvironment(env)
  if (given?.branch !== undefined) return given
  let found = asked.get(dir)
  if (found === undefined) asked.set(dir, (found = askGit(dir)))
  if (given === undefined) return found
  return found.branch === undefined ? given : { ...given, branch: found.branch }
}
