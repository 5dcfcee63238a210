/** Conformance: HTTP errors (400, 404, 405, 413), tokens (401, 403) and namespaces. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { readTokenFile } from '../../../src/ledger/tokens.js'
import { tempDir } from '../../helpers/temp-dir.js'
import type { StartLedger } from '../harness.js'
import { pricedTrace } from './get-grade.js'

export const TOKENS = {
  ci: 'ci-token-0123456789abcdef',
  prod: 'prod-token-0123456789abcdef',
  refundBot: 'refund-bot-0123456789abcdef',
  conversation: 'conversation-0123456789abcdef',
}

/** A token file: ci and prod are two namespaces of the org `acme`; the bot is narrowed to one agent, the last token to one session. */
export function tokenFile() {
  const file = join(tempDir(), 'tokens.json')
  writeFileSync(
    file,
    JSON.stringify({
      tokens: [
        { name: 'ci', token: TOKENS.ci, org: 'acme', namespace: 'ci' },
        { name: 'prod', token: TOKENS.prod, org: 'acme', namespace: 'prod' },
        { name: 'refund-bot', token: TOKENS.refundBot, org: 'acme', namespace: 'prod', agent: 'refund-agent' },
        { name: 'conv-42', token: TOKENS.conversation, org: 'acme', namespace: 'prod', session_id: 'conv-42' },
      ],
    }),
  )
  return readTokenFile(file)
}

async function raw(url: string, init: RequestInit & { headers?: Record<string, string> }): Promise<{ status: number; body: unknown; allow: string | null }> {
  const response = await fetch(url, init)
  return { status: response.status, body: await response.json(), allow: response.headers.get('allow') }
}

export function httpConformance(start: StartLedger): void {
  it('answers an unknown operation with 404, another method with 405, a body that is not a JSON object with 400', async () => {
    const ledger = await start()
    expect(await raw(`${ledger.url}/v1/run.delete`, { method: 'POST', body: '{}' })).toEqual({
      status: 404,
      body: {
        error: 'unknown_operation',
        message:
          'no operation "run.delete"; the operations are run.begin, run.complete, run.get, run.grade, run.list, trace.put, trace.get, results.put, results.list, run.stats, run.prune',
      },
      allow: null,
    })
    expect(await raw(`${ledger.url}/v1/run.list`, { method: 'GET' })).toEqual({
      status: 405,
      body: { error: 'method_not_allowed', message: 'run.list is called with POST /v1/run.list and a JSON body, not GET' },
      allow: 'POST',
    })
    expect(await raw(`${ledger.url}/v1/run.list`, { method: 'POST', body: '{"limit": ' })).toEqual({
      status: 400,
      body: { error: 'bad_json', message: expect.stringMatching(/^run\.list: the body is not JSON \(/) },
      allow: null,
    })
    expect(await raw(`${ledger.url}/v1/run.list`, { method: 'POST', body: '[1]' })).toEqual({
      status: 400,
      body: { error: 'bad_json', message: "run.list: the body must be a JSON object of the operation's fields; got an array" },
      allow: null,
    })
    expect((await raw(`${ledger.url}/v1/run.list`, { method: 'POST' })).status).toBe(200)
    expect(await raw(`${ledger.url}/elsewhere`, { method: 'GET' })).toEqual({
      status: 404,
      body: { error: 'not_found', message: "no route GET /elsewhere; the ledger's operations are POST /v1/<operation>, MCP is POST /mcp" },
      allow: null,
    })
  })

  it('refuses run bodies over 1 MB and trace.put bodies that inflate past 64 MB (413)', async () => {
    const ledger = await start()
    const big = JSON.stringify({ agent: 'a', goal: 'x'.repeat(1024 * 1024) })
    expect(await raw(`${ledger.url}/v1/run.begin`, { method: 'POST', body: big })).toEqual({
      status: 413,
      body: { error: 'body_too_large', message: 'run.begin: the body is over 1 MB, the limit of run.begin bodies (traces go in trace.put)' },
      allow: null,
    })
    const runId = (await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g' })).body.run_id
    // A 1 MB trace fits trace.put; 65 MB of zeros gzip to 64 KB, and inflate past the limit.
    const trace = pricedTrace()
    trace.metadata = { notes: 'n'.repeat(1024 * 1024) }
    expect((await ledger.call('trace.put', { run_id: runId, trace })).status).toBe(200)
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20))
    expect(await raw(`${ledger.url}/v1/trace.put`, { method: 'POST', body: bomb, headers: { 'content-encoding': 'gzip' } })).toEqual({
      status: 413,
      body: { error: 'body_too_large', message: 'trace.put: the body is over 64 MB, the limit of trace.put bodies' },
      allow: null,
    })
    expect(await raw(`${ledger.url}/v1/trace.put`, { method: 'POST', body: 'not gzip', headers: { 'content-encoding': 'gzip' } })).toEqual({
      status: 400,
      body: { error: 'bad_json', message: expect.stringMatching(/^trace\.put: the gzip body could not be inflated \(/) },
      allow: null,
    })
  })

  it("fills org and namespace of a single-user server from its own, and keeps each namespace's runs apart", async () => {
    const ledger = await start({ namespace: 'team' })
    await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'r1' })
    await ledger.call('run.begin', { org: ledger.org, namespace: 'team', agent: 'a', goal: 'g', run_id: 'r2' })
    await ledger.call('run.begin', { org: 'other', namespace: 'team', agent: 'a', goal: 'g', run_id: 'r3' })
    const list = await ledger.call<{ runs: Array<{ run_id: string }> }>('run.list', { order_by: 'started_asc', fields: ['run_id'] })
    expect(list.body).toEqual({ runs: [{ run_id: 'r1' }, { run_id: 'r2' }], total: 2, next_cursor: null })
    expect((await ledger.call('run.list', { org: 'other', namespace: 'team' })).body).toMatchObject({ total: 1 })
  })
}

export function tokenConformance(start: StartLedger): void {
  it('needs a token of the token file (401), and never logs it', async () => {
    const ledger = await start({ tokens: tokenFile() })
    expect(await raw(`${ledger.url}/v1/run.list`, { method: 'POST', body: '{}' })).toEqual({
      status: 401,
      body: {
        error: 'unauthorized',
        message:
          'this server needs a bearer token: send the header "Authorization: Bearer <token>" with a token of its --token-file (a browser: open the page once with ?token=<token>)',
      },
      allow: null,
    })
    expect(await ledger.call('run.list', {}, { token: 'guess-0123456789abcdef' })).toEqual({
      status: 401,
      body: { error: 'unauthorized', message: "the bearer token is not one of this server's tokens (its --token-file)" },
    })
    expect((await ledger.call('run.list', {}, { token: TOKENS.ci })).status).toBe(200)
    expect(ledger.log.some((line) => line.includes(TOKENS.ci) || line.includes('guess-'))).toBe(false)
    expect(ledger.log.at(-1)).toMatch(/^\S+Z POST \/v1\/run\.list 200 \d+\.\dms ci$/)
  })

  it("fills a call from its token's org and namespace, refuses another (403), and never shows another namespace's runs", async () => {
    const ledger = await start({ tokens: tokenFile() })
    const runId = (await ledger.call<{ run_id: string }>('run.begin', { agent: 'refund-agent', goal: 'g' }, { token: TOKENS.ci })).body.run_id
    expect(await ledger.call('run.list', { namespace: 'prod' }, { token: TOKENS.ci })).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'run.list: namespace "prod" is outside this token\'s scope (ci may use namespace "ci" only)', field: 'namespace' },
    })
    expect((await ledger.call('run.get', { org: 'other' }, { token: TOKENS.ci })).body).toMatchObject({ error: 'forbidden', field: 'org' })
    expect((await ledger.call('run.get', { run_id: runId }, { token: TOKENS.prod })).body).toMatchObject({ found: false })
    expect((await ledger.call('run.list', {}, { token: TOKENS.prod })).body).toEqual({ runs: [], total: 0, next_cursor: null })
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed' }, { token: TOKENS.prod })).status).toBe(404)
    expect((await ledger.call('run.list', {}, { token: TOKENS.ci })).body).toMatchObject({ total: 1 })
  })

  it("narrows a token with an agent to that agent's runs", async () => {
    const ledger = await start({ tokens: tokenFile() })
    await ledger.call('run.begin', { agent: 'search-agent', goal: 'g', run_id: 'search-1' }, { token: TOKENS.prod })
    const mine = await ledger.call<{ run_id: string }>('run.begin', { goal: 'Refund order 42' }, { token: TOKENS.refundBot })
    expect(mine.status).toBe(200)
    expect(await ledger.call('run.begin', { agent: 'search-agent', goal: 'g' }, { token: TOKENS.refundBot })).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        message: 'run.begin: agent "search-agent" is outside this token\'s scope (refund-bot may use agent "refund-agent" only)',
        field: 'agent',
      },
    })
    const seen = await ledger.call<{ runs: Array<{ run_id: string; agent: string }> }>('run.list', { fields: ['run_id', 'agent'] }, { token: TOKENS.refundBot })
    expect(seen.body).toEqual({ runs: [{ run_id: mine.body.run_id, agent: 'refund-agent' }], total: 1, next_cursor: null })
    expect((await ledger.call('run.get', { run_id: 'search-1' }, { token: TOKENS.refundBot })).body).toMatchObject({ found: false })
    expect((await ledger.call('run.list', { agent: 'search-agent' }, { token: TOKENS.refundBot })).status).toBe(403)
    expect((await ledger.call('run.list', {}, { token: TOKENS.prod })).body).toMatchObject({ total: 2 })
  })

  it('narrows a token with a session_id to the runs of that session: it opens, completes and grades only those', async () => {
    const ledger = await start({ tokens: tokenFile() })
    await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'other-1', session_id: 'conv-7' }, { token: TOKENS.prod })
    await ledger.call('run.complete', { run_id: 'other-1', status: 'completed' }, { token: TOKENS.prod })
    const mine = await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g' }, { token: TOKENS.conversation })
    expect((await ledger.call('run.get', { run_id: mine.body.run_id }, { token: TOKENS.prod })).body).toMatchObject({ run: { session_id: 'conv-42' } })
    expect((await ledger.call('run.complete', { run_id: 'other-1', status: 'failed' }, { token: TOKENS.conversation })).status).toBe(404)
    expect((await ledger.call('run.complete', { run_id: mine.body.run_id, status: 'completed' }, { token: TOKENS.conversation })).status).toBe(200)
    expect((await ledger.call('run.grade', { session_id: 'conv-7', grade: 'pass' }, { token: TOKENS.conversation })).status).toBe(403)
    expect((await ledger.call('run.grade', { run_id: 'other-1', grade: 'pass' }, { token: TOKENS.conversation })).status).toBe(404)
    expect((await ledger.call('run.grade', { run_id: mine.body.run_id, grade: 'pass' }, { token: TOKENS.conversation })).body).toMatchObject({ graded: 1 })
    expect((await ledger.call('run.list', {}, { token: TOKENS.conversation })).body).toMatchObject({ total: 1 })
    // Re-using another session's run id tells it that the id is taken, not whose run it is.
    await ledger.call(
      'run.begin',
      { agent: 'secret-agent', user_id: 'user-7@example.com', goal: 'g', run_id: 'other-2', session_id: 'conv-7' },
      { token: TOKENS.prod },
    )
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'other-2' }, { token: TOKENS.conversation })).toEqual({
      status: 409,
      body: { error: 'run_conflict', message: 'run.begin: run "other-2" belongs to another agent; send an empty run_id to open a new run' },
    })
  })
}
