import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createLedgerClient } from '../../src/ledger/client.js'
import { singleUser } from '../../src/ledger/identity.js'
import { startHttpServer } from '../../src/server/http-server.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { ledgerRelay } from '../../src/viewer/ledger-relay.js'
import { ledgerViewerRoutes } from '../../src/viewer/ledger-routes.js'
import { startDirectoryLedger } from '../ledger/harness.js'

async function get(url: string): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }> {
  const response = await fetch(url, { redirect: 'manual' })
  const text = await response.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    // The page, a script, a stylesheet.
  }
  return { status: response.status, body, headers: response.headers, text }
}

describe('the team viewer over HTTP', () => {
  it('serves its page and bundle at /ledger/ under the viewer policy, and sends /ledger there', async () => {
    const ledger = await startDirectoryLedger({ teamViewer: { goldenDir: undefined } })
    const page = await get(`${ledger.url}/ledger/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    expect(page.text).toContain('<script defer src="./assets/ledger.js"></script>')
    expect(page.text).toContain(`<div id="app" data-source="ledger" data-ledger="${ledger.org}/default">`)
    const script = await get(`${ledger.url}/ledger/assets/ledger.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.text.startsWith('/*! uPlot 1.6.32 (c) Leon Sorokin, MIT License')).toBe(true)
    expect((await get(`${ledger.url}/ledger/assets/ledger.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8')
    const bare = await get(`${ledger.url}/ledger`)
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/ledger/'])
    expect(await get(`${ledger.url}/ledger/elsewhere`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'no page /ledger/elsewhere in the team viewer; it is at /ledger/' },
    })
  })

  it("answers a hostile filter, window or run id with the operation's own 4xx naming the field, never a 500", async () => {
    const ledger = await startDirectoryLedger({ teamViewer: { goldenDir: undefined } })
    expect(await get(`${ledger.url}/ledger/api/runs?status=exploded`)).toMatchObject({ status: 422, body: { error: 'invalid_input', field: 'status' } })
    expect(await get(`${ledger.url}/ledger/api/runs?limit=-1`)).toMatchObject({ status: 422, body: { error: 'invalid_input', field: 'limit' } })
    expect(await get(`${ledger.url}/ledger/api/runs?order_by=%3Cscript%3E`)).toMatchObject({ status: 422, body: { field: 'order_by' } })
    expect(await get(`${ledger.url}/ledger/api/trends?bucket=fortnight`)).toMatchObject({ status: 422, body: { error: 'invalid_input', field: 'bucket' } })
    expect(await get(`${ledger.url}/ledger/api/trends?since=1y`)).toMatchObject({ status: 422, body: { error: 'invalid_input', field: 'since' } })
    expect(await get(`${ledger.url}/ledger/api/run`)).toMatchObject({ status: 400, body: { error: 'bad_request', message: 'name the run: ?id=<run id>' } })
    expect(await get(`${ledger.url}/ledger/api/run?id=..%2F..%2Fetc%2Fpasswd`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'there is no run "../../etc/passwd" in this ledger that your token may see; the Runs page lists them' },
    })
    expect(await get(`${ledger.url}/ledger/api/diff?actual=x&mode=sideways`)).toMatchObject({ status: 400, body: { error: 'bad_request' } })
  })

  it('says a run has no golden when the server keeps no golden directory', async () => {
    const ledger = await startDirectoryLedger({ teamViewer: { goldenDir: undefined } })
    expect((await ledger.call('run.begin', { run_id: 'r1', agent: 'refund-agent', goal: 'refund order 42' })).status).toBe(200)
    await ledger.call('trace.put', {
      run_id: 'r1',
      trace: {
        trace_id: 't1',
        name: 'refund-agent',
        turns: [],
        metadata: {},
        started_at: 1_800_000_000,
        ended_at: 1_800_000_001,
        format_version: '1',
        parent_trace_id: null,
        handoff_context: null,
        status: 'completed',
        error: null,
      },
    })
    const run = await get(`${ledger.url}/ledger/api/run?id=r1`)
    expect(run.body).toMatchObject({
      run: { run_id: 'r1', agent: 'refund-agent' },
      view: { summary: { id: 'r1', golden: { state: 'none', id: null, changes: 0 } } },
    })
    expect(await get(`${ledger.url}/ledger/api/diff?actual=r1`)).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: '"refund-agent" has no golden baseline: this server keeps no golden directory' },
    })
  })

  it('over a ledger elsewhere (view --ledger) that cannot be reached: a 502 naming it, never a 500', async () => {
    // A port nothing listens on: one a server had a moment ago.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const relay = ledgerRelay(createLedgerClient(`http://127.0.0.1:${port}`, { timeoutMs: 2000 }))
    const server = await startHttpServer({
      port: 0,
      tokens: undefined,
      owner: singleUser(),
      groups: [ledgerViewerRoutes({ service: relay, prices: loadPriceTable(), goldenDir: undefined })],
      graceMs: 100,
    })
    onTestFinished(() => server.close())
    expect(await get(`${server.url}/ledger/api/runs`)).toMatchObject({
      status: 502,
      body: { error: 'bad_gateway', message: `run.list: could not reach the ledger at http://127.0.0.1:${port}/v1/run.list (ECONNREFUSED)` },
    })
  })
})
