/**
 * Operating `reagent-flow serve` (issue 28): the probes (/healthz, /readyz),
 * the Prometheus metrics, the log (JSON or text, its level, no secret in any
 * line) and the shutdown (the drain timeout, /readyz 503 while draining, a
 * second signal). Real server processes, as a user starts them.
 */
import { writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { runCli } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { post, spawnServe, type ServeProcess } from './serve-process.js'

const LEDGER_TOKEN = 'ledger-0123456789abcdef'
const METRICS_TOKEN = 'scrape-0123456789abcdef'

function withTokens(cwd: string): void {
  writeFileSync(join(cwd, 'tokens.json'), JSON.stringify({ tokens: [{ name: 'ci', token: LEDGER_TOKEN, org: 'acme', namespace: 'ci' }] }))
  writeFileSync(join(cwd, 'metrics.token'), `${METRICS_TOKEN}\n`)
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url, { headers })
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}

/** The JSON lines of a server's stderr. */
function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM')
  expect(await server.exited).toEqual({ code: 0, signal: null })
}

/** A raw HTTP/1.1 connection: the request line and headers of a run.begin and the first bytes of its body, the rest held back. */
function heldRequest(url: string): Promise<{ send: (text: string) => void; reply: Promise<string> }> {
  const { port, hostname } = new URL(url)
  const body = '{"agent":"held","goal":"g"}'
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/run.begin HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      )
      resolve({ send: (text) => socket.write(text.replace('<rest>', body.slice(5))), reply })
    })
    let received = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
    socket.on('error', () => {})
    const reply = new Promise<string>((done) => socket.on('close', () => done(received)))
  })
}

describe('reagent-flow serve: probes', () => {
  it('answers GET /healthz 200 and GET /readyz 200 naming each part, without a token, on a server that has a token file', async () => {
    const cwd = tempDir()
    withTokens(cwd)
    const server = await spawnServe(['--token-file', 'tokens.json'], cwd)
    expect(await get(`${server.url}/healthz`)).toEqual({ status: 200, type: 'application/json', body: '{"status":"ok"}' })
    expect(await get(`${server.url}/readyz`)).toEqual({ status: 200, type: 'application/json', body: '{"ready":true,"checks":{"server":"ok","store":"ok"}}' })
    expect((await post(server.url, 'run.list', {})).status).toBe(401)
    await stop(server)
  })
})

describe('reagent-flow serve: /metrics', () => {
  it('counts requests by operation and status, times them, counts those in flight, and has the process metrics; a made-up operation is "unknown"', async () => {
    const server = await spawnServe([], tempDir())
    const runId = (await post<{ run_id: string }>(server.url, 'run.begin', { agent: 'a', goal: 'g' })).body.run_id
    await post(server.url, 'run.complete', { run_id: runId, status: 'completed' })
    await post(server.url, 'run.list', {})
    await post(server.url, 'run.get', { run_id: 'no-such-run' })
    await post(server.url, 'no-such-operation-123', {})
    await get(`${server.url}/healthz`)
    const { status, type, body } = await get(`${server.url}/metrics`)
    expect([status, type]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8'])
    const reagent = body.split('\n').filter((line) => /^reagent_http_requests_(total|in_flight)/.test(line))
    expect(reagent).toEqual([
      'reagent_http_requests_total{operation="run.begin",status="200"} 1',
      'reagent_http_requests_total{operation="run.complete",status="200"} 1',
      'reagent_http_requests_total{operation="run.list",status="200"} 1',
      'reagent_http_requests_total{operation="run.get",status="200"} 1',
      'reagent_http_requests_total{operation="unknown",status="404"} 1',
      'reagent_http_requests_total{operation="healthz",status="200"} 1',
      // The scrape itself.
      'reagent_http_requests_in_flight 1',
    ])
    expect(body).toContain('reagent_http_request_duration_seconds_count{operation="run.list",status="200"} 1\n')
    expect(body).toContain('reagent_http_request_duration_seconds_bucket{le="+Inf",operation="run.begin",status="200"} 1\n')
    expect(body).toMatch(/^process_resident_memory_bytes \d+$/m)
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+$/m)
    // A directory store has no connection pool.
    expect(body).not.toContain('reagent_store_pool')
    await stop(server)
  })

  it('needs the token of --metrics-token-file, and no ledger token will do; a server with a token file and none refuses it', async () => {
    const cwd = tempDir()
    withTokens(cwd)
    const closed = await spawnServe(['--token-file', 'tokens.json'], cwd)
    const refused = {
      status: 403,
      type: 'application/json',
      body: JSON.stringify({
        error: 'forbidden',
        message:
          '/metrics of a server with --token-file needs a token of its own: start it with --metrics-token-file <file> and scrape with "Authorization: Bearer <that token>"',
      }),
    }
    expect(await get(`${closed.url}/metrics`)).toEqual(refused)
    expect(await get(`${closed.url}/metrics`, { authorization: `Bearer ${LEDGER_TOKEN}` })).toEqual(refused)
    await stop(closed)

    const server = await spawnServe(['--token-file', 'tokens.json', '--metrics-token-file', 'metrics.token'], cwd)
    const unauthorized = {
      status: 401,
      type: 'application/json',
      body: '{"error":"unauthorized","message":"/metrics needs \\"Authorization: Bearer <token>\\" with the token of --metrics-token-file"}',
    }
    expect(await get(`${server.url}/metrics`)).toEqual(unauthorized)
    expect(await get(`${server.url}/metrics`, { authorization: `Bearer ${LEDGER_TOKEN}` })).toEqual(unauthorized)
    expect((await get(`${server.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200)
    // The scrape token is not a ledger token.
    expect((await post(server.url, 'run.list', {}, METRICS_TOKEN)).status).toBe(401)
    await stop(server)
  })

  it('names a metrics token file that is missing or holds too short a token', () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'short.token'), 'abc\n')
    expect(runCli(['serve', '--metrics-token-file', 'short.token'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "reagent-flow serve: --metrics-token-file short.token: the token must be 16+ characters without spaces on the file's first line (openssl rand -hex 32 > short.token)\n",
    })
    expect(runCli(['serve', '--metrics-token-file', 'none.token'], cwd).stderr).toBe('reagent-flow serve: --metrics-token-file none.token: no such file\n')
  })
})

describe('reagent-flow serve: the log', () => {
  const SECRET = 'sekrit-9f8e7d6c5b4a3210'

  for (const format of ['json', 'text'] as const) {
    it(`writes no secret in any line (${format}), with a secret in the path, query, headers, cookie, Host, token and body of every kind of request (ledger, MCP, viewer, probes)`, async () => {
      const cwd = tempDir()
      withTokens(cwd)
      const server = await spawnServe(
        ['--token-file', 'tokens.json', '--metrics-token-file', 'metrics.token', '--view', '--log-level', 'debug', '--log-format', format],
        cwd,
      )
      const headers = { 'user-agent': SECRET, 'x-secret': SECRET, cookie: `reagent_token=${SECRET}; other=${SECRET}`, 'content-type': 'application/json' }
      const bearer = (token: string) => ({ ...headers, authorization: `Bearer ${token}` })
      const body = JSON.stringify({ agent: SECRET, goal: SECRET, metadata: { secret: SECRET } })
      const answers = await Promise.all([
        fetch(`${server.url}/v1/run.begin?secret=${SECRET}`, { method: 'POST', headers: bearer(LEDGER_TOKEN), body }),
        fetch(`${server.url}/v1/${SECRET}`, { method: 'POST', headers: bearer(LEDGER_TOKEN), body }),
        fetch(`${server.url}/v1/run.list`, { method: 'POST', headers: bearer(SECRET), body }),
        fetch(`${server.url}/v1/run.list`, { method: 'POST', headers: bearer(LEDGER_TOKEN), body: `{"${SECRET}": ` }),
        fetch(`${server.url}/v1/trace.put`, {
          method: 'POST',
          headers: { ...bearer(LEDGER_TOKEN), 'content-encoding': 'gzip' },
          body: gzipSync(JSON.stringify({ run_id: SECRET, trace: SECRET })),
        }),
        fetch(`${server.url}/?token=${SECRET}`, { headers, redirect: 'manual' }),
        fetch(`${server.url}/${SECRET}?token=${LEDGER_TOKEN}`, { headers, redirect: 'manual' }),
        fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...bearer(LEDGER_TOKEN), accept: 'application/json, text/event-stream' }, body }),
        fetch(`${server.url}/metrics?${SECRET}`, { headers: bearer(SECRET) }),
        fetch(`${server.url}/readyz?${SECRET}`, { headers: bearer(SECRET) }),
      ])
      for (const answer of answers) await answer.arrayBuffer()
      // A Host header of its own (fetch will not send one): raw.
      const raw = await new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () =>
          socket.end(`GET /healthz HTTP/1.1\r\nHost: ${SECRET}\r\nAuthorization: Bearer ${SECRET}\r\nConnection: close\r\n\r\n`),
        )
        let text = ''
        socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        socket.on('close', () => resolve(text))
      })
      expect(raw).toMatch(/^HTTP\/1\.1 200 OK/)
      await stop(server)
      const stderr = server.stderr()
      // Every request has its line (11), then the events: store_connected, start, shutdown, stopped.
      expect(stderr.trimEnd().split('\n')).toHaveLength(15)
      for (const secret of [SECRET, LEDGER_TOKEN, METRICS_TOKEN]) expect(stderr).not.toContain(secret)
      if (format === 'json') {
        // Each request under a name of the fixed set, whatever its path said.
        const requests = jsonLines(stderr).filter((line) => line.event === 'request')
        expect(requests.map((line) => `${line.operation} ${line.status}`).sort()).toEqual([
          'healthz 200',
          'mcp 400',
          'metrics 401',
          'readyz 200',
          'run.begin 200',
          'run.list 400',
          'run.list 401',
          'trace.put 422',
          'unknown 404',
          'viewer 303',
          'viewer 401',
        ])
      }
    })
  }

  it('--log-format text: a line per request with its route, status, duration and caller, and the events in words', async () => {
    const server = await spawnServe(['--log-format', 'text'], tempDir())
    await post(server.url, 'run.list', {})
    await stop(server)
    const lines = server
      .stderr()
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /, '').replace(/ \d+\.\dms /, ' <ms> '))
    expect(lines).toEqual([
      'the directory store at .reagent is open',
      `serving the run ledger on ${server.url}/v1 · store: directory .reagent · single user (org local, namespace default), loopback only`,
      'POST /v1/run.list 200 <ms> local',
      'SIGTERM: stopping after the requests in flight (at most 10 s)',
      'stopped; the directory store is closed',
    ])
  })

  it('--log-level warn: nothing of a server that only answered; the probes are logged at debug only', async () => {
    const quiet = await spawnServe(['--log-level', 'warn'], tempDir())
    await post(quiet.url, 'run.list', {})
    await post(quiet.url, 'run.get', { run_id: 'none' })
    await stop(quiet)
    expect(quiet.stderr()).toBe('')

    const info = await spawnServe([], tempDir())
    await get(`${info.url}/healthz`)
    await get(`${info.url}/readyz`)
    await get(`${info.url}/metrics`)
    await stop(info)
    expect(jsonLines(info.stderr()).map((line) => line.event)).toEqual(['store_connected', 'start', 'shutdown', 'stopped'])
  })
})

describe('reagent-flow serve: shutdown', () => {
  it('answers /readyz 503 while it drains, cuts what is still in flight after --drain-timeout, closes the store and exits 0', async () => {
    const server = await spawnServe(['--drain-timeout', '1'], tempDir())
    const stuck = await heldRequest(server.url)
    const finishing = await heldRequest(server.url)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    // The rest of a body in flight, and a probe on the same connection (pipelined): answered, then the connection closed.
    finishing.send('<rest>GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const replies = (await finishing.reply).split(/(?=HTTP\/1\.1 )/)
    expect(replies[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(replies[1]).toMatch(
      /^HTTP\/1\.1 503 Service Unavailable\r\nconnection: close\r\n[\s\S]*\r\n\r\n\{"ready":false,"checks":\{"server":"shutting down","store":"ok"\}\}$/,
    )
    expect(await server.exited).toEqual({ code: 0, signal: null })
    expect(await stuck.reply).toBe('')
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000)
    const events = jsonLines(server.stderr()).map((line) =>
      line.event === 'request' ? `${line.operation} ${line.status}` : `${line.level} ${line.event}: ${line.message}`,
    )
    expect(events.slice(2)).toEqual([
      'info shutdown: SIGTERM: stopping after the requests in flight (at most 1 s)',
      'info draining: waiting up to 1 s for 2 request(s) in flight',
      'run.begin 200',
      'warn drain_timeout: 1 request(s) still in flight after 1 s: their connections are closed',
      // The stuck request's client is gone once its connection is closed: a 400, then the store is closed.
      'run.begin 400',
      'info stopped: stopped; the directory store is closed',
    ])
  })

  it('stops at once on a second signal, exit 143', async () => {
    const server = await spawnServe(['--drain-timeout', '60'], tempDir())
    await heldRequest(server.url)
    await new Promise((resolve) => setTimeout(resolve, 100))
    server.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    server.child.kill('SIGTERM')
    expect(await server.exited).toEqual({ code: 143, signal: null })
    expect(
      jsonLines(server.stderr())
        .slice(2)
        .map((line) => line.event),
    ).toEqual(['shutdown', 'draining', 'stopped_at_once'])
  })
})
