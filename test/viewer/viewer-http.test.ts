import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { singleUser } from '../../src/ledger/identity.js'
import { startLedgerServer } from '../../src/ledger/ledger-server.js'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { saveTrace } from '../../src/entries/files.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import { viewerRoutes } from '../../src/viewer/viewer-routes.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { writeViewerDir } from './viewer-dir.js'
import { startViewer } from './viewer-server.js'

async function get(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(url, { redirect: 'manual', ...init })
  const text = await response.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    body = { text }
  }
  return { status: response.status, body, headers: response.headers }
}

describe('the viewer over HTTP', () => {
  it('serves its page with a policy that allows its own script only, and its API as JSON', async () => {
    const viewer = await startViewer(writeViewerDir(tempDir()))
    const page = await fetch(viewer.url)
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await page.text()).toContain('<script defer src="./assets/viewer.js"></script>')
    const script = await fetch(`${viewer.url}assets/viewer.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const runs = await get(`${viewer.url}api/runs`)
    expect(runs.body).toMatchObject({ prices_as_of: expect.any(String), skipped: [], version: 1 })
    expect((runs.body.runs as unknown[]).length).toBe(11)
    const run = await get(`${viewer.url}api/run?id=refund-agent.trace.json`)
    expect(run.body).toMatchObject({ summary: { name: 'refund-agent' }, stack_trace: null, trace: { trace_id: 'refund-25' } })
  })

  it('reads nothing outside the directory: .., encoded, absolute and linked paths are not runs', async () => {
    const dir = writeViewerDir(tempDir())
    const outside = tempDir()
    saveTrace(buildTrace('secret', [{ text: 'the secret' }]), { traceDir: outside })
    symlinkSync(join(outside, 'secret.trace.json'), join(dir, 'linked.trace.json'))
    const viewer = await startViewer(dir)
    const refs = [
      `../${outside.split('/').pop()}/secret.trace.json`,
      '%2e%2e%2fsecret.trace.json',
      join(outside, 'secret.trace.json'),
      'linked.trace.json',
      'golden/../../secret.trace.json',
      '',
    ]
    for (const ref of refs) {
      const { status, body } = await get(`${viewer.url}api/run?id=${encodeURIComponent(ref)}`)
      expect([ref, status]).toEqual([ref, ref === '' ? 400 : 404])
      expect(JSON.stringify(body)).not.toContain('the secret')
    }
    expect((await get(`${viewer.url}api/run?id=..%2F..%2Fetc%2Fpasswd`)).body).toEqual({
      error: 'not_found',
      message: `there is no trace "../../etc/passwd" in ${dir}; the Runs page lists them`,
    })
    expect((await get(`${viewer.url}assets/../../package.json`)).status).toBe(404)
  })

  it('answers a diff with both traces, and refuses options diffTraces does not take, naming them', async () => {
    const viewer = await startViewer(writeViewerDir(tempDir()))
    const diff = await get(`${viewer.url}api/diff?actual=refund-agent.trace.json`)
    expect(diff.body).toMatchObject({
      expected: { id: 'golden/refund-agent.trace.json', kind: 'golden' },
      actual: { id: 'refund-agent.trace.json', kind: 'run' },
      diff: {
        equal: false,
        mode: 'strict',
        changes: [{ path: 'turns[1].llm_call.tool_calls[0].arguments.amount', expected: 19.99, actual: 25 }, { subject: 'response_text' }],
      },
      approve_command: `npx reagent-flow approve refund-agent --dir ${viewer.index.dir}`,
    })
    expect((await get(`${viewer.url}api/diff?actual=refund-agent.trace.json&mode=fuzzy`)).body).toEqual({
      error: 'bad_request',
      message: 'diff option "mode" must be one of "strict", "unordered", "subset", "superset"; got "fuzzy".',
    })
    expect((await get(`${viewer.url}api/diff?actual=crashed-agent.trace.json`)).body).toEqual({
      error: 'not_found',
      message: `"crashed-agent" has no golden baseline yet: review the run, then npx reagent-flow approve crashed-agent --dir ${viewer.index.dir}`,
    })
    const pair = await get(`${viewer.url}api/diff?expected=search-agent.trace.json&actual=refund-agent.trace.json&args=ignore`)
    expect(pair.body).toMatchObject({ approve_command: null, diff: { equal: false } })
  })

  it('with a token file: a browser opens ?token= once and keeps a cookie for GETs; other namespaces and narrowed tokens may not view', async () => {
    const dir = writeViewerDir(tempDir())
    const file = join(tempDir(), 'tokens.json')
    writeFileSync(
      file,
      JSON.stringify({
        tokens: [
          { name: 'team', token: 'team-token-0123456789', org: 'local', namespace: 'default' },
          { name: 'other', token: 'other-token-0123456789', org: 'acme', namespace: 'prod' },
          { name: 'bot', token: 'bot-token-0123456789ab', org: 'local', namespace: 'default', agent: 'refund-agent' },
        ],
      }),
    )
    const viewer = await startViewer(dir, { tokens: readTokenFile(file) })
    expect((await get(viewer.url)).status).toBe(401)
    const login = await get(`${viewer.url}?token=team-token-0123456789`)
    expect(login.status).toBe(303)
    expect(login.headers.get('location')).toBe('/')
    const cookie = login.headers.get('set-cookie')!
    expect(cookie).toBe('reagent_token=team-token-0123456789; Path=/; HttpOnly; SameSite=Strict')
    const withCookie = { headers: { cookie: 'reagent_token=team-token-0123456789' } }
    expect((await get(`${viewer.url}api/runs`, withCookie)).status).toBe(200)
    expect((await get(`${viewer.url}api/runs`, { method: 'POST', ...withCookie })).status).toBe(401)
    expect((await get(`${viewer.url}?token=wrong-token-0123456789`)).status).toBe(401)
    expect((await get(`${viewer.url}api/runs`, { headers: { authorization: 'Bearer other-token-0123456789' } })).body).toEqual({
      error: 'forbidden',
      message:
        'other may not view the trace directory: the viewer shows the runs of org "local", namespace "default" to tokens of that namespace that are narrowed to no agent or session',
    })
    expect((await get(`${viewer.url}api/runs`, { headers: { authorization: 'Bearer bot-token-0123456789ab' } })).status).toBe(403)
  })

  it('runs beside the run ledger in one server: the viewer at /, the ledger operations at /v1', async () => {
    const dir = writeViewerDir(tempDir())
    const store = DirectoryStore.open({ dir, org: 'local', namespace: 'default', watch: false })
    const index = new TraceIndex({ dir, prices: loadPriceTable() })
    const server = await startLedgerServer({
      store,
      port: 0,
      org: 'local',
      namespace: 'default',
      groups: [viewerRoutes({ index, owner: singleUser() })],
      log: () => {},
    })
    try {
      expect((await get(`${server.url}/api/runs`)).status).toBe(200)
      // Every run session() wrote, those in test-file folders too.
      const listed = await fetch(`${server.url}/v1/run.list`, { method: 'POST', body: '{}' })
      expect(((await listed.json()) as { total: number }).total).toBe(8)
    } finally {
      await server.close()
    }
  })
})
