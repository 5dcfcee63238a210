/**
 * Slow and vanishing clients, over raw sockets on loopback: headers, body
 * and idle connections each have a time limit, and a client that hangs up
 * mid-body is a client gone (400 in the log), not a store that cannot be
 * reached (503).
 */
import { connect } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { startLedgerServer } from '../../src/ledger/ledger-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger } from '../ledger/harness.js'

async function quickServer(): Promise<{ url: URL; log: string[] }> {
  const log: string[] = []
  const store = DirectoryStore.open({ dir: tempDir(), org: 'local', namespace: 'default', watch: false })
  const server = await startLedgerServer({
    store,
    port: 0,
    org: 'local',
    namespace: 'default',
    log: (line) => void log.push(line),
    timeouts: { headersMs: 300, requestMs: 1000, idleMs: 200 },
  })
  onTestFinished(() => server.close())
  return { url: new URL(server.url), log }
}

/** Writes `text` on a fresh connection; resolves with what came back and the milliseconds until the server closed it (give up after `limitMs`). */
function holdOpen(url: URL, text: string, limitMs: number): Promise<{ closedAfterMs: number | null; reply: string }> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname)
    const started = performance.now()
    let reply = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (reply += chunk))
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ closedAfterMs: null, reply })
    }, limitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ closedAfterMs: performance.now() - started, reply })
    })
    socket.on('error', () => {})
    socket.write(text)
  })
}

describe('slow clients', () => {
  it('are cut off when their headers take longer than the headers timeout', async () => {
    const { url } = await quickServer()
    const { closedAfterMs } = await holdOpen(url, `POST /v1/run.list HTTP/1.1\r\nHost: ${url.host}\r\n`, 5000)
    expect(closedAfterMs).not.toBe(null)
    expect(closedAfterMs!).toBeLessThan(2000)
  })

  it('are cut off when their body takes longer than the request timeout, and that is not logged as the store failing', async () => {
    const { url, log } = await quickServer()
    const head = `POST /v1/run.list HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"limit":`
    const { closedAfterMs } = await holdOpen(url, head, 5000)
    expect(closedAfterMs).not.toBe(null)
    expect(closedAfterMs!).toBeLessThan(3000)
    expect(log.join('\n')).not.toMatch(/cannot be reached| 503 /)
  })

  it('have an idle kept-alive connection closed after the idle timeout', async () => {
    const { url } = await quickServer()
    const request = `POST /v1/run.list HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`
    const { closedAfterMs, reply } = await holdOpen(url, request, 5000)
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(closedAfterMs).not.toBe(null)
    expect(closedAfterMs!).toBeLessThan(1500)
  })
})

describe('a client that hangs up mid-body', () => {
  it('is logged as a 400 of its request, not as a store that cannot be reached (503)', async () => {
    const ledger = await startDirectoryLedger()
    const url = new URL(ledger.url)
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`POST /v1/run.begin HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"agent":"a",`)
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 100)
      })
      socket.on('error', () => {})
    })
    const until = Date.now() + 5000
    while (!ledger.log.some((line) => line.includes('POST /v1/run.begin')) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ledger.log).toHaveLength(1)
    expect(ledger.log[0]).toMatch(/^\S+Z POST \/v1\/run\.begin 400 \d+\.\dms local$/)
  })
})
