/**
 * `reagent-flow ci comment <results>`: the run's results as a comment on the
 * pull request, through GitHub's REST API with GITHUB_TOKEN, updated on later
 * pushes instead of added again. Repository, pull request and API default
 * from the GitHub Actions environment.
 *
 * Without a token the comment is written to a file and the command exits 0:
 * a build should not fail for a comment it could not post (a local run, a
 * workflow that gives no token); the gate is `ci gate`'s job (note 065).
 */
import { UsageError } from '../../errors/index.js'
import { PACKAGE_VERSION } from '../../base/package-version.js'
import { commentBody, commentMarker, upsertComment } from '../../results/github-comment.js'
import { readResultsFile } from '../../results/results-file.js'
import { BASELINE_OPTIONS, baselineComparison } from '../baseline-options.js'
import { readTextOrNull, writeFileAtomic } from '../../storage/index.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command } from '../command.js'

const DEFAULT_OUT = 'reagent-flow-comment.md'
const DEFAULT_API = 'https://api.github.com'

function set(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function keyOf(option: string | undefined): string | undefined {
  const key = set(option)
  if (key !== undefined && !/^[\w.-]+$/.test(key))
    throw new UsageError(`--key must be letters, digits, ".", "_" or "-", such as checkout-agent; got ${JSON.stringify(key)}`)
  return key
}

function repoOf(option: string | undefined, env: NodeJS.ProcessEnv): string {
  const repo = set(option) ?? set(env.GITHUB_REPOSITORY)
  if (repo === undefined) throw new UsageError('no repository: pass --repo owner/name (GitHub Actions sets GITHUB_REPOSITORY)')
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError(`--repo must be owner/name, such as acme/agents; got ${JSON.stringify(repo)}`)
  return repo
}

/** The pull request of the event that started the workflow: its payload's pull_request.number, else refs/pull/N/merge. */
function prFromEnvironment(env: NodeJS.ProcessEnv): number | undefined {
  const eventPath = set(env.GITHUB_EVENT_PATH)
  const text = eventPath === undefined ? null : readTextOrNull(eventPath)
  if (text !== null) {
    try {
      const number = (JSON.parse(text) as { pull_request?: { number?: unknown } }).pull_request?.number
      if (typeof number === 'number' && Number.isSafeInteger(number) && number > 0) return number
    } catch {
      // Not the event payload we know: fall back to the ref.
    }
  }
  const ref = /^refs\/pull\/(\d+)\/(merge|head)$/.exec(env.GITHUB_REF ?? '')
  return ref === null ? undefined : Number(ref[1])
}

function prOf(option: string | undefined, env: NodeJS.ProcessEnv): number {
  const given = set(option)
  if (given !== undefined) {
    if (!/^[1-9]\d*$/.test(given)) throw new UsageError(`--pr must be a pull request's number, such as 42; got ${JSON.stringify(given)}`)
    return Number(given)
  }
  const pr = prFromEnvironment(env)
  if (pr === undefined) {
    throw new UsageError(
      `no pull request: this is not a pull_request workflow (GITHUB_REF is ${JSON.stringify(env.GITHUB_REF ?? '')}). ` +
        "Pass --pr <number>, or run the step only for pull requests (if: github.event_name == 'pull_request')",
    )
  }
  return pr
}

export const ciCommentCommand: Command = {
  name: 'ci comment',
  args: '<results>',
  summary: "post a results file's Markdown as a pull-request comment (GitHub, with GITHUB_TOKEN), updating its own earlier comment",
  details: [
    'The repository and pull request default from GitHub Actions (GITHUB_REPOSITORY, the event payload or GITHUB_REF);',
    'the API from GITHUB_API_URL, else https://api.github.com. The job needs "permissions: pull-requests: write".',
    `Without GITHUB_TOKEN the comment is written to --out (default ${DEFAULT_OUT}) and the exit code is 0.`,
    'Exit code 2: an unreadable results file, no repository or pull request, or GitHub refused (the status and what to do).',
  ],
  options: {
    repo: { type: 'string', value: '<owner/name>', description: 'the repository (default: GITHUB_REPOSITORY)' },
    pr: { type: 'string', value: '<number>', description: 'the pull request (default: the workflow event’s)' },
    'api-url': { type: 'string', value: '<url>', description: `GitHub's REST API (default: GITHUB_API_URL or ${DEFAULT_API})` },
    key: { type: 'string', value: '<name>', description: 'one comment per key: several suites commenting on one pull request each keep their own' },
    out: { type: 'string', value: '<file.md>', default: DEFAULT_OUT, description: 'where the comment is written when there is no GITHUB_TOKEN' },
    ...BASELINE_OPTIONS,
  },
  positionals: { min: 1, max: 1, names: 'results file' },
  examples: [
    'reagent-flow ci comment merged.json',
    'GITHUB_TOKEN=... reagent-flow ci comment results.json --repo acme/agents --pr 42',
    'reagent-flow ci comment merged.json --baseline main-results/',
  ],
  async run(input, ctx) {
    const env = process.env
    const key = keyOf(stringOption(input, 'key'))
    const file = input.positionals[0]!
    const body = commentBody(readResultsFile(file), key, await baselineComparison(input, file))
    const token = set(env.GITHUB_TOKEN)
    if (token === undefined) {
      const out = stringOption(input, 'out') || DEFAULT_OUT
      writeFileAtomic(out, body)
      ctx.note(
        `GITHUB_TOKEN is not set, so nothing was posted: the comment is in ${out} (set env: GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }} on the step to post it)`,
      )
      if (ctx.json) ctx.printJson({ action: 'written', out })
      return EXIT_OK
    }
    const repo = repoOf(stringOption(input, 'repo'), env)
    const pr = prOf(stringOption(input, 'pr'), env)
    const apiUrl = (set(stringOption(input, 'api-url')) ?? set(env.GITHUB_API_URL) ?? DEFAULT_API).replace(/\/+$/, '')
    if (!/^https?:\/\//.test(apiUrl)) throw new UsageError(`--api-url must be an http(s) URL, such as ${DEFAULT_API}; got ${JSON.stringify(apiUrl)}`)
    const posted = await upsertComment({ apiUrl, token, repo, pr, userAgent: `reagent-flow/${PACKAGE_VERSION}` }, body, commentMarker(key))
    if (ctx.json) ctx.printJson({ action: posted.action, id: posted.id, url: posted.url, repo, pr })
    else ctx.print(`${posted.action} the comment on ${repo}#${pr}${posted.url === null ? ` (comment ${posted.id})` : `: ${posted.url}`}`)
    return EXIT_OK
  },
}
