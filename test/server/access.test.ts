import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { tempDir } from '../helpers/temp-dir.js'
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

/** A GET sent with exactly this request target (fetch and URL would normalise it). */
function getRaw(url: string, path: string): Promise<{ status: number; location: string | undefined; cookie: string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', path }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, cookie: res.headers['set-cookie'] }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('a server with a token file, opened in a browser with ?token=', () => {
  it('redirects to a path of its own only: //evil.example/x goes to /evil.example/x on this server, not to another site', async () => {
    const file = join(tempDir(), 'tokens.json')
    const token = 'browser-token-0123456789'
    writeFileSync(file, JSON.stringify({ tokens: [{ name: 'me', token, org: 'acme', namespace: 'ci' }] }))
    const ledger = await startDirectoryLedger({ tokens: readTokenFile(file) })
    const cookie = [`reagent_token=${token}; Path=/; HttpOnly; SameSite=Strict`]
    expect(await getRaw(ledger.url, `//evil.example/x?token=${token}&view=1`)).toEqual({ status: 303, location: '/evil.example/x?view=1', cookie })
    expect(await getRaw(ledger.url, `////evil.example?token=${token}`)).toEqual({ status: 303, location: '/evil.example', cookie })
    expect(await getRaw(ledger.url, `/runs/01J?token=${token}`)).toEqual({ status: 303, location: '/runs/01J', cookie })
  })
})
