/**
 * `reagent-flow ci comment` (the built CLI) against a local node:http server
 * standing in for GitHub's REST API: it creates the comment, then updates the
 * same one; it follows the Link header to a later page of comments; without
 * GITHUB_TOKEN it writes the comment to a file; a 403 is one line saying
 * which permission the token lacks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { PACKAGE_VERSION } from '../../src/base/package-version.js'
import { commentBody } from '../../src/results/github-comment.js'
import { renderResults } from '../../src/results/results-file.js'
import { tempDir } from '../helpers/temp-dir.js'
import { HOSTILE_RESULTS } from '../results/ci-fixture.js'
import { runCliAsync } from './run-cli.js'

interface Seen {
  method: string
  url: string
  headers: Record<string, string | undefined>
  body: unknown
}

type Handler = (request: Seen, response: ServerResponse, base: string) => void

/** A server answering each request with `handle`, recording what it was asked. */
async function fakeGitHub(handle: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = []
  let base = ''
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => {
      const request: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: {
          accept: req.headers.accept,
          authorization: req.headers.authorization,
          'x-github-api-version': req.headers['x-github-api-version'] as string | undefined,
          'user-agent': req.headers['user-agent'],
          'content-type': req.headers['content-type'],
        },
        body: text === '' ? null : JSON.parse(text),
      }
      seen.push(request)
      handle(request, res, base)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url: base, seen }
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(value))
}

/** A project with a results file and a pull_request event payload, as a workflow step sees them. */
function project(): { dir: string; env: Record<string, string> } {
  const dir = tempDir()
  writeFileSync(join(dir, 'results.json'), renderResults(HOSTILE_RESULTS))
  writeFileSync(join(dir, 'event.json'), JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }))
  // Every variable the command reads, set: nothing of the shell running the tests leaks in.
  const env = { GITHUB_TOKEN: 'ghs_test', GITHUB_REPOSITORY: 'acme/agents', GITHUB_EVENT_PATH: join(dir, 'event.json'), GITHUB_REF: '', GITHUB_API_URL: '' }
  return { dir, env }
}

const HEADERS = {
  accept: 'application/vnd.github+json',
  authorization: 'Bearer ghs_test',
  'x-github-api-version': '2022-11-28',
  'user-agent': `reagent-flow/${PACKAGE_VERSION}`,
}

describe('reagent-flow ci comment', () => {
  it('creates the comment on the first run and updates the same comment on the next', async () => {
    const comments: Array<{ id: number; body: string; html_url: string }> = [{ id: 1, body: 'LGTM', html_url: 'x' }]
    const github = await fakeGitHub((request, res) => {
      if (request.method === 'GET') return json(res, 200, comments)
      if (request.method === 'POST') {
        const comment = { id: 99, body: (request.body as { body: string }).body, html_url: 'https://github.com/acme/agents/pull/7#issuecomment-99' }
        comments.push(comment)
        return json(res, 201, comment)
      }
      comments[1]!.body = (request.body as { body: string }).body
      json(res, 200, comments[1])
    })
    const { dir, env } = project()
    const body = commentBody(HOSTILE_RESULTS)
    expect(body.startsWith('<!-- reagent-flow -->\n### reagent-flow: agent tests\n')).toBe(true)

    expect(await runCliAsync(['ci', 'comment', 'results.json', '--api-url', `${github.url}/`], dir, env)).toEqual({
      code: 0,
      stdout: 'created the comment on acme/agents#7: https://github.com/acme/agents/pull/7#issuecomment-99\n',
      stderr: '',
    })
    expect(await runCliAsync(['ci', 'comment', 'results.json'], dir, { ...env, GITHUB_API_URL: github.url })).toEqual({
      code: 0,
      stdout: 'updated the comment on acme/agents#7: https://github.com/acme/agents/pull/7#issuecomment-99\n',
      stderr: '',
    })
    expect(github.seen).toEqual([
      { method: 'GET', url: '/repos/acme/agents/issues/7/comments?per_page=100', headers: { ...HEADERS, 'content-type': undefined }, body: null },
      { method: 'POST', url: '/repos/acme/agents/issues/7/comments', headers: { ...HEADERS, 'content-type': 'application/json' }, body: { body } },
      { method: 'GET', url: '/repos/acme/agents/issues/7/comments?per_page=100', headers: { ...HEADERS, 'content-type': undefined }, body: null },
      { method: 'PATCH', url: '/repos/acme/agents/issues/comments/99', headers: { ...HEADERS, 'content-type': 'application/json' }, body: { body } },
    ])
  })

  it('follows the Link header to the next page of comments to find its own, and takes the pull request from GITHUB_REF and --repo', async () => {
    const github = await fakeGitHub((request, res, base) => {
      if (request.url === '/repos/acme/other/issues/12/comments?per_page=100') {
        const next = `${base}/repositories/5/issues/12/comments?per_page=100&page=2`
        return json(res, 200, [{ id: 1, body: 'first page' }], { link: `<${next}>; rel="next", <${next}>; rel="last"` })
      }
      if (request.url === '/repositories/5/issues/12/comments?per_page=100&page=2')
        return json(res, 200, [
          { id: 2, body: 'x' },
          { id: 41, body: '<!-- reagent-flow -->\nold' },
        ])
      json(res, 200, { id: 41 })
    })
    const { dir, env } = project()
    const result = await runCliAsync(['ci', 'comment', 'results.json', '--repo', 'acme/other', '--json'], dir, {
      ...env,
      GITHUB_EVENT_PATH: '',
      GITHUB_REF: 'refs/pull/12/merge',
      GITHUB_API_URL: github.url,
    })
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ action: 'updated', id: 41, url: null, repo: 'acme/other', pr: 12 }, null, 2)}\n`,
      stderr: '',
    })
    expect(github.seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /repos/acme/other/issues/12/comments?per_page=100',
      'GET /repositories/5/issues/12/comments?per_page=100&page=2',
      'PATCH /repos/acme/other/issues/comments/41',
    ])
  })

  it('with --key keeps a comment of its own beside the unkeyed one, and refuses a key that is not a plain name', async () => {
    const github = await fakeGitHub((request, res) =>
      request.method === 'GET' ? json(res, 200, [{ id: 5, body: '<!-- reagent-flow -->\nthe other suite' }]) : json(res, 201, { id: 6 }),
    )
    const { dir, env } = project()
    expect(await runCliAsync(['ci', 'comment', 'results.json', '--key', 'billing', '--api-url', github.url], dir, env)).toEqual({
      code: 0,
      stdout: 'created the comment on acme/agents#7 (comment 6)\n',
      stderr: '',
    })
    expect(github.seen.map((request) => request.method)).toEqual(['GET', 'POST'])
    expect(github.seen[1]!.body).toEqual({ body: commentBody(HOSTILE_RESULTS, 'billing') })
    expect(await runCliAsync(['ci', 'comment', 'results.json', '--key', 'a b'], dir, env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow ci comment: --key must be letters, digits, ".", "_" or "-", such as checkout-agent; got "a b"\n',
    })
  })

  it('without GITHUB_TOKEN says so in one line, writes the comment to a file and exits 0', async () => {
    const { dir, env } = project()
    expect(await runCliAsync(['ci', 'comment', 'results.json', '--out', 'comment.md'], dir, { ...env, GITHUB_TOKEN: '' })).toEqual({
      code: 0,
      stdout: '',
      stderr:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression the message tells the user to write
        'reagent-flow ci comment: GITHUB_TOKEN is not set, so nothing was posted: the comment is in comment.md (set env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }} on the step to post it)\n',
    })
    expect(readFileSync(join(dir, 'comment.md'), 'utf8')).toBe(commentBody(HOSTILE_RESULTS))
  })

  it('exits 2 with one line naming the status and the permission the token lacks when GitHub answers 403', async () => {
    const github = await fakeGitHub((request, res) =>
      request.method === 'GET' ? json(res, 200, []) : json(res, 403, { message: 'Resource not accessible by integration', status: '403' }),
    )
    const { dir, env } = project()
    expect(await runCliAsync(['ci', 'comment', 'results.json', '--api-url', github.url], dir, env)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow ci comment: GitHub answered 403 Forbidden: "Resource not accessible by integration" (POST /repos/acme/agents/issues/7/comments). ' +
        'The token lacks the pull-requests: write permission: add "permissions: pull-requests: write" to the job ' +
        '(a pull request from a fork gets a read-only token: skip the step for forks).\n',
    })
  })

  it('tells a spent rate limit from a missing permission by the rate-limit headers of a 403', async () => {
    const github = await fakeGitHub((_request, res) =>
      json(res, 403, { message: 'API rate limit exceeded for installation ID 1.' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1800000000' }),
    )
    const { dir, env } = project()
    expect(await runCliAsync(['ci', 'comment', 'results.json', '--api-url', github.url], dir, env)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow ci comment: GitHub answered 403 Forbidden: "API rate limit exceeded for installation ID 1." (GET /repos/acme/agents/issues/7/comments). ' +
        "The token's API rate limit is spent (it resets at 2027-01-15T08:00:00.000Z): run the step again later.\n",
    })
  })

  it('exits 2 naming what is missing when no pull request is known, and when GitHub cannot be reached', async () => {
    const { dir, env } = project()
    expect(await runCliAsync(['ci', 'comment', 'results.json'], dir, { ...env, GITHUB_EVENT_PATH: '', GITHUB_REF: 'refs/heads/main' })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow ci comment: no pull request: this is not a pull_request workflow (GITHUB_REF is "refs/heads/main"). ' +
        "Pass --pr <number>, or run the step only for pull requests (if: github.event_name == 'pull_request')\n",
    })
    // A port nothing listens on any more.
    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    const port = (gone.address() as AddressInfo).port
    await new Promise<void>((resolve) => gone.close(() => resolve()))
    const unreachable = await runCliAsync(['ci', 'comment', 'results.json', '--api-url', `http://127.0.0.1:${port}`], dir, env)
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toMatch(
      /^reagent-flow ci comment: GitHub could not be reached at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.* \(GET \/repos\/acme\/agents\/issues\/7\/comments\)\. Check --api-url \(or GITHUB_API_URL\) and the network\.\n$/,
    )
  })
})
