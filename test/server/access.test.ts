import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startDirectoryLedger } from '../ledger/harness.js'

/** A POST with the headers a browser (or a DNS rebinding page) would send, which fetch does not let a caller set. */
function postWith(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/run.list`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end('{}')
  })
}

describe('a single-user server (no token file)', () => {
  it('answers loopback Host names, and refuses another Host (DNS rebinding) and a web page of another site', async () => {
    const ledger = await startDirectoryLedger()
    const port = new URL(ledger.url).port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) expect((await postWith(ledger.url, { host })).status).toBe(200)
    expect(await postWith(ledger.url, { host: `evil.example:${port}` })).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        message: `this server has no token file, so it answers loopback names only (localhost, 127.0.0.1), not Host "evil.example:${port}"`,
      },
    })
    expect(await postWith(ledger.url, { origin: 'https://evil.example' })).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'requests from web pages of other sites are refused (Origin "https://evil.example")' },
    })
    expect((await postWith(ledger.url, { origin: 'null' })).status).toBe(403)
    expect((await postWith(ledger.url, { origin: `http://localhost:${port}` })).status).toBe(200)
  })
})
