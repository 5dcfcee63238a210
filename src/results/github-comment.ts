/**
 * The pull-request comment of `reagent-flow ci comment`, through GitHub's
 * REST API (issue comments: every pull request is an issue): one comment per
 * pull request, updated on each push rather than added again.
 *
 * Ours is the comment whose body starts with a hidden marker; the pull
 * request's comments are listed (100 a page, following the `Link` header's
 * `rel="next"`) to find it, then it is updated (PATCH) or, when there is
 * none, created (POST). Requests carry the headers GitHub documents for API
 * version 2022-11-28. A refusal is a `GitHubApiError` saying what to do.
 */
import { GitHubApiError } from '../errors/index.js'
import type { ComparisonReport } from './comparison-lines.js'
import { resultsMarkdownThatFits } from './markdown.js'
import type { RunResults } from './types.js'

/**
 * The hidden first line of our comment, by which a later run finds it; a
 * `key` tells apart the comments of several suites on one pull request.
 */
export function commentMarker(key?: string): string {
  return key === undefined ? '<!-- reagent-flow -->' : `<!-- reagent-flow key=${key} -->`
}

/** How long one request may take before it is given up. */
const REQUEST_TIMEOUT_MS = 30_000

/** GitHub's limit on a comment's body, in characters. */
const MAX_COMMENT_CHARS = 65_536

export interface CommentTarget {
  /** `https://api.github.com`, or a GitHub Enterprise Server's `https://host/api/v3`. */
  apiUrl: string
  token: string
  /** `owner/name`. */
  repo: string
  pr: number
  userAgent: string
}

export interface PostedComment {
  action: 'created' | 'updated'
  id: number
  /** The comment's page, when GitHub said it. */
  url: string | null
}

/**
 * The comment's body: the marker, then the results' Markdown; with fewer
 * table rows (failures are kept first) when the whole table would pass
 * GitHub's limit.
 */
export function commentBody(results: RunResults, key?: string, comparison?: ComparisonReport): string {
  const marker = commentMarker(key)
  return `${marker}\n${resultsMarkdownThatFits(results, (markdown) => marker.length + 1 + markdown.length <= MAX_COMMENT_CHARS, key, comparison)}`
}

interface IssueComment {
  id: number
  body?: string | null
  html_url?: string
}

function headers(target: CommentTarget, withBody: boolean): Record<string, string> {
  return {
    Accept: 'application/vnd.github+json',
    Authorization: `Bearer ${target.token}`,
    'X-GitHub-Api-Version': '2022-11-28',
    'User-Agent': target.userAgent,
    ...(withBody ? { 'Content-Type': 'application/json' } : {}),
  }
}

/** What to do about a status GitHub answered with. */
function fixFor(status: number, target: CommentTarget, answer: Headers): string {
  // GitHub answers 403 (or 429) both for a missing permission and for a spent rate limit; its headers tell them apart.
  if ((status === 403 || status === 429) && answer.get('x-ratelimit-remaining') === '0') {
    const reset = Number(answer.get('x-ratelimit-reset'))
    const when = Number.isFinite(reset) && reset > 0 ? ` (it resets at ${new Date(reset * 1000).toISOString()})` : ''
    return `The token's API rate limit is spent${when}: run the step again later`
  }
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression the user writes in the workflow
  if (status === 401) return "The token was not accepted: pass the workflow's token as GITHUB_TOKEN (env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }})"
  if (status === 403) {
    return (
      'The token lacks the pull-requests: write permission: add "permissions: pull-requests: write" to the job ' +
      '(a pull request from a fork gets a read-only token: skip the step for forks)'
    )
  }
  if (status === 404) return `Check that ${target.repo} has a pull request #${target.pr} (--repo, --pr) and that the token can read the repository`
  return 'Try again; if it persists, check https://www.githubstatus.com and the request above'
}

/** A request to the API: the parsed JSON answer and its Link header, or a `GitHubApiError`. */
async function call(target: CommentTarget, method: string, url: string, body?: unknown): Promise<{ json: unknown; link: string | null }> {
  const request = `${method} ${new URL(url).pathname}`
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers: headers(target, body !== undefined),
      // A step that hangs on an API that does not answer would hold the runner for hours.
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error)
    throw new GitHubApiError(request, null, `could not be reached at ${target.apiUrl}: ${cause}`, 'Check --api-url (or GITHUB_API_URL) and the network', {
      cause: error,
    })
  }
  const text = await response.text()
  if (!response.ok) {
    const message = messageOf(text)
    const problem = `answered ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}${message === undefined ? '' : `: "${message}"`}`
    throw new GitHubApiError(request, response.status, problem, fixFor(response.status, target, response.headers))
  }
  try {
    return { json: text === '' ? null : JSON.parse(text), link: response.headers.get('link') }
  } catch (error) {
    throw new GitHubApiError(
      request,
      response.status,
      'answered with something that is not JSON',
      'Check --api-url (or GITHUB_API_URL): it should be the REST API',
      { cause: error },
    )
  }
}

/** GitHub's own explanation in an error body (`{ "message": "Resource not accessible by integration" }`). */
function messageOf(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message
    return typeof message === 'string' ? message.replace(/\s+/g, ' ').slice(0, 200) : undefined
  } catch {
    return undefined
  }
}

/** The `rel="next"` URL of a Link header, if it stays on the API's origin (the token is not sent elsewhere). */
function nextPage(link: string | null, apiUrl: string): string | undefined {
  for (const part of link?.split(',') ?? []) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part)
    if (match !== null && new URL(match[1]!).origin === new URL(apiUrl).origin) return match[1]
  }
  return undefined
}

/** Our earlier comment on the pull request, if there is one: the first whose body starts with the marker. */
async function findOurs(target: CommentTarget, marker: string): Promise<IssueComment | undefined> {
  const seen = new Set<string>()
  let url: string | undefined = `${target.apiUrl}/repos/${target.repo}/issues/${target.pr}/comments?per_page=100`
  while (url !== undefined && !seen.has(url)) {
    seen.add(url)
    const { json, link } = await call(target, 'GET', url)
    const comments = Array.isArray(json) ? (json as IssueComment[]) : []
    const ours = comments.find((comment) => typeof comment.body === 'string' && comment.body.startsWith(`${marker}\n`))
    if (ours !== undefined) return ours
    url = nextPage(link, target.apiUrl)
  }
  return undefined
}

/** Creates our comment on the pull request with `body` (`commentBody`'s, starting with `marker`), or updates the one an earlier run made. */
export async function upsertComment(target: CommentTarget, body: string, marker: string): Promise<PostedComment> {
  const ours = await findOurs(target, marker)
  const { json } =
    ours === undefined
      ? await call(target, 'POST', `${target.apiUrl}/repos/${target.repo}/issues/${target.pr}/comments`, { body })
      : await call(target, 'PATCH', `${target.apiUrl}/repos/${target.repo}/issues/comments/${ours.id}`, { body })
  const comment = (json ?? {}) as Partial<IssueComment>
  return { action: ours === undefined ? 'created' : 'updated', id: comment.id ?? ours?.id ?? 0, url: comment.html_url ?? null }
}
