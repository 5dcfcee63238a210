/**
 * Small gzip bodies that inflate to a lot (320 KB or less to 60 MB), many at
 * once, on loopback: the server inflates no more than its budget across
 * requests (the rest are told to come back: 503 with Retry-After), and stops
 * working on a body whose client has gone.
 */
import { request } from 'node:http'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildTrace } from '../helpers/trace-builder.js'
import { startDirectoryLedger } from '../ledger/harness.js'

const INFLATED = 60 * 1024 * 1024

/** A trace.put body of `INFLATED` bytes once inflated: JSON, but not a trace (so a body that gets through is answered quickly with a 422). */
const notATrace = gzipSync(JSON.stringify({ run_id: 'r', trace: { pad: 'x'.repeat(INFLATED) } }))

async function putGzip(url: string, body: Buffer): Promise<{ status: number; error: unknown; message: unknown; retryAfter: string | null }> {
  const response = await fetch(`${url}/v1/trace.put`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body })
  const json = (await response.json()) as { error?: unknown; message?: unknown }
  return { status: response.status, error: json.error, message: json.message, retryAfter: response.headers.get('retry-after') }
}

describe('gzip bodies that inflate to a lot', () => {
  it('are inflated at most 256 MB at a time across requests: of 40 at once inflating to 60 MB each, the ones over the budget are answered 503 with Retry-After', async () => {
    expect(notATrace.length).toBeLessThan(320 * 1024)
    const ledger = await startDirectoryLedger()
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: 40 }, () => putGzip(ledger.url, notATrace)))
    const busy = answers.filter((answer) => answer.status === 503)
    expect(busy.length).toBeGreaterThan(0)
    for (const answer of busy) {
      expect(answer).toEqual({
        status: 503,
        error: 'unavailable',
        message: 'trace.put: the server is inflating other gzip bodies (256 MB at once, its limit); try again in a moment',
        retryAfter: '1',
      })
    }
    for (const answer of answers.filter((one) => one.status !== 503)) expect([answer.status, answer.error]).toEqual([422, 'invalid_input'])
    expect(performance.now() - started).toBeLessThan(30_000)
    // The budget is given back: one body alone goes through.
    expect((await putGzip(ledger.url, notATrace)).status).toBe(422)
    expect((await ledger.call('run.list', {})).status).toBe(200)
  }, 60_000)

  it('stop being worked on when their client goes: a trace.put whose client hung up after sending is answered 400 and stores nothing', async () => {
    const ledger = await startDirectoryLedger()
    const runId = (await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g' })).body.run_id
    const trace = gzipSync(JSON.stringify({ run_id: runId, trace: buildTrace('a', [{ text: 'y'.repeat(INFLATED) }]) }))
    await new Promise<void>((resolve, reject) => {
      const req = request(`${ledger.url}/v1/trace.put`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
      req.on('error', () => resolve())
      req.end(trace, () => {
        // Sent whole; the client goes before the server has inflated it.
        req.destroy()
        resolve()
      })
      req.on('response', () => reject(new Error('answered before the client went')))
    })
    const until = Date.now() + 20_000
    while (!ledger.log.some((line) => line.includes('POST /v1/trace.put')) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ledger.log.find((line) => line.includes('POST /v1/trace.put'))).toMatch(/ POST \/v1\/trace\.put 400 /)
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ found: true, turns: 0 })
  }, 60_000)
})
