import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { requirePackages } from '../../src/base/optional-dependency.js'
import { CLI, runCli } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { post, spawnServe } from './serve-process.js'

/** A request whose body arrives in two parts, `gapMs` apart: in flight for that long. */
function slowTracePut(url: string, runId: string, afterFirstPart: () => void): Promise<Response> {
  const text = JSON.stringify({ run_id: runId, trace: buildTrace('slow', [{ text: 'done' }]) })
  const half = Math.floor(text.length / 2)
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(text.slice(0, half)))
      await new Promise((resolve) => setTimeout(resolve, 300))
      afterFirstPart()
      await new Promise((resolve) => setTimeout(resolve, 500))
      controller.enqueue(encoder.encode(text.slice(half)))
      controller.close()
    },
  })
  return fetch(`${url}/v1/trace.put`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit)
}

/** Each line of a JSON log, in short: an event with its message, or a request as `METHOD operation status caller`. */
function logEvents(stderr: string): string[] {
  return stderr
    .trimEnd()
    .split('\n')
    .map((text) => JSON.parse(text) as { event: string; message?: string; method?: string; operation?: string; status?: number; caller?: string })
    .map((line) =>
      line.event === 'request'
        ? `${line.method} ${line.operation} ${line.status} ${line.caller}`
        : line.event === 'store_connected' || line.event === 'start'
          ? line.event
          : `${line.event} ${line.message}`,
    )
}

describe('reagent-flow serve', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops cleanly on ${signal}: the request in flight finishes and is written, new connections are refused, exit 0`, async () => {
      const cwd = tempDir()
      const server = await spawnServe([], cwd)
      const runId = (await post<{ run_id: string }>(server.url, 'run.begin', { agent: 'slow', goal: 'g' })).body.run_id
      const inFlight = slowTracePut(server.url, runId, () => server.child.kill(signal))
      const response = await inFlight
      expect([response.status, await response.json()]).toEqual([200, { run_id: runId, turns: 1, bytes: expect.any(Number), stored_bytes: expect.any(Number) }])
      expect(await server.exited).toEqual({ code: 0, signal: null })
      await expect(fetch(`${server.url}/v1/run.list`, { method: 'POST', body: '{}' })).rejects.toThrow()
      expect(loadTrace(join(cwd, '.reagent', 'ledger', 'local', 'default', `${runId}.trace.json`)).turns).toHaveLength(1)
      // The log (JSON: stderr is not a terminal): the run.begin answered, the shutdown, the drain, the trace.put it waited for.
      expect(logEvents(server.stderr())).toEqual([
        'store_connected',
        'start',
        'POST run.begin 200 local',
        `shutdown ${signal}: stopping after the requests in flight (at most 10 s)`,
        'draining waiting up to 10 s for 1 request(s) in flight',
        'POST trace.put 200 local',
        'stopped stopped; the directory store is closed',
      ])
    })
  }

  it('logs one line per request and serves a token file: a request without its token is a 401', async () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'tokens.json'), JSON.stringify({ tokens: [{ name: 'ci', token: 'ci-0123456789abcdef', org: 'acme', namespace: 'ci' }] }))
    const server = await spawnServe(['--token-file', 'tokens.json', '--host', '0.0.0.0'], cwd)
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
    const url = server.url.replace('0.0.0.0', '127.0.0.1')
    expect((await post(url, 'run.list', {})).status).toBe(401)
    expect(await post(url, 'run.list', {}, 'ci-0123456789abcdef')).toEqual({ status: 200, body: { runs: [], total: 0, next_cursor: null } })
    server.child.kill('SIGTERM')
    await server.exited
    const lines = server
      .stderr()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const request = { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), event: 'request', method: 'POST', operation: 'run.list' }
    expect(lines.filter((line) => line.event === 'request')).toEqual([
      { ...request, level: 'info', status: 401, duration_ms: expect.any(Number), caller: '-' },
      { ...request, level: 'info', status: 200, duration_ms: expect.any(Number), caller: 'ci' },
    ])
    expect(server.stderr()).not.toContain('ci-0123456789abcdef')
  })

  it('refuses to listen beyond loopback without a token file, and names a bad token file', () => {
    const cwd = tempDir()
    expect(runCli(['serve', '--host', '0.0.0.0'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow serve: --host 0.0.0.0 is not a loopback address: a server reachable from other machines needs --token-file (see "reagent-flow serve --help")\n',
    })
    writeFileSync(join(cwd, 'tokens.json'), JSON.stringify({ tokens: [{ token: 'short', org: 'a', namespace: 'b' }] }))
    expect(runCli(['serve', '--token-file', 'tokens.json'], cwd).stderr).toBe(
      'reagent-flow serve: --token-file tokens.json: at tokens[0].token: must NOT have fewer than 16 characters (rule: minLength) (tokens need 16+ characters: openssl rand -hex 32). ' +
        'Each entry: { "name", "token" or "sha256", "org", "namespace", "role"? (read, write or admin; default write), "agent"?, "session_id"? }\n',
    )
    writeFileSync(join(cwd, 'tokens.json'), JSON.stringify({ tokens: [{ token: 'x'.repeat(16), org: 'a', namespace: 'b', role: 'owner' }] }))
    expect(runCli(['serve', '--token-file', 'tokens.json'], cwd).stderr).toBe(
      'reagent-flow serve: --token-file tokens.json: at tokens[0].role: must be equal to one of the allowed values (rule: enum) (a role is "read", "write" or "admin"). ' +
        'Each entry: { "name", "token" or "sha256", "org", "namespace", "role"? (read, write or admin; default write), "agent"?, "session_id"? }\n',
    )
  })

  it('checks --retention and its options before it starts', () => {
    const cwd = tempDir()
    expect(runCli(['serve', '--retention', '90'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow serve: --retention must be a count of hours, days or weeks (36h, 90d, 12w); got "90"\n',
    })
    expect(runCli(['serve', '--retention-keep-last', '3'], cwd).stderr).toBe(
      'reagent-flow serve: --retention-keep-failed and --retention-keep-last go with --retention <age> (how old a run must be to be pruned)\n',
    )
    expect(runCli(['serve', '--retention', '90d', '--retention-keep-last', '0'], cwd).stderr).toBe(
      'reagent-flow serve: --retention-keep-last must be a whole number from 1 to 1000000; got "0"\n',
    )
  })

  it('says which port is taken', async () => {
    const cwd = tempDir()
    const first = await spawnServe(['--store', join(cwd, 'a')], cwd)
    const port = new URL(first.url).port
    expect(runCli(['serve', '--store', join(cwd, 'b'), '--port', port], cwd).stderr).toBe(
      `reagent-flow serve: 127.0.0.1:${port} is in use: stop what listens there, or pass another --port\n`,
    )
  })

  it('prints where it listens as JSON with --json', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', '--org', 'acme'], { cwd: tempDir(), stdio: ['ignore', 'pipe', 'ignore'] })
    const line = await new Promise<string>((resolve) => {
      let out = ''
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        if (out.trimEnd().endsWith('}')) resolve(out)
      })
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(JSON.parse(line)).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
      mcp: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      viewer: null,
      team_viewer: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/$/),
      store: { kind: 'directory', location: '.reagent' },
      tokens: null,
    })
  })

  it('names the npm i to run when an optional package is missing', async () => {
    await expect(
      requirePackages('reagent-flow serve', [
        { name: 'hono', range: '^4.11' },
        { name: 'no-such-package-reagent', range: '^1' },
      ]),
    ).rejects.toThrow(
      'reagent-flow serve needs no-such-package-reagent, an optional peer dependency of reagent-flow that is not installed: npm i -D hono@^4.11 no-such-package-reagent@^1',
    )
  })
})
