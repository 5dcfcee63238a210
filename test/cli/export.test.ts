import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { decodeWithOtlpDefinitions, hexIds, withStringInts } from '../otel/helpers.js'
import { CLI, runCli, runJson, sampleRuns, traceDirWith, type CliResult } from './run-cli.js'

interface Received {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** An OTLP/HTTP receiver on a random local port, answering every request with `status`. */
async function startReceiver(status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(status === 200 ? '{}' : '{"code":13,"message":"storage is full"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

/** A local URL nothing listens on: a port a server had, and gave back. */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** Runs the CLI without blocking this process, so the receiver above can answer it. */
function runCliAsync(args: readonly string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

function spanNames(text: string): string[] {
  const request = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }
  return request.resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => span.name)
}

describe('reagent-flow export --otlp', () => {
  it('writes the run and the runs it started as OTLP/JSON spans on stdout', () => {
    const { code, stdout, stderr } = runCli(['export', 'refund-agent', '--otlp'], traceDirWith(sampleRuns()))
    expect([code, stderr]).toEqual([0, ''])
    expect(spanNames(stdout)).toEqual([
      'invoke_agent refund-agent',
      'chat gpt-4o',
      'execute_tool lookup_order',
      'chat gpt-4o',
      'execute_tool issue_refund',
      'chat gpt-4o',
      'invoke_agent billing-agent',
      'chat gpt-4o',
      'execute_tool charge_back',
      'chat gpt-4o',
    ])
    expect(stdout).not.toContain('gen_ai.input.messages')
  })

  it('writes the same bytes to --out, and says how many spans of how many runs it wrote', () => {
    const cwd = traceDirWith(sampleRuns())
    const printed = runCli(['export', 'refund-agent', '--otlp', '--include-content'], cwd).stdout
    expect(runCli(['export', 'refund-agent', '--otlp', '--include-content', '--out', 'spans.json'], cwd)).toEqual({
      code: 0,
      stdout: 'wrote 10 spans of 2 runs to spans.json\n',
      stderr: '',
    })
    expect(readFileSync(join(cwd, 'spans.json'), 'utf8')).toBe(printed)
    expect(runJson(['export', 'refund-agent', '--otlp', '--out', 'again.json'], cwd).json).toEqual({
      runs: [
        { name: 'refund-agent', trace_id: 'trace-refund-agent', file: join('.reagent', 'refund-agent.trace.json') },
        { name: 'billing-agent', trace_id: 'trace-billing-agent', file: join('.reagent', 'billing-agent.trace.json') },
      ],
      spans: 10,
      out: 'again.json',
      endpoint: null,
    })
  })

  it("POSTs OTLP/JSON to an OTLP/HTTP receiver's /v1/traces, with the headers asked for; the body decodes with the OTLP definitions", async () => {
    const receiver = await startReceiver()
    const cwd = traceDirWith(sampleRuns())
    const result = await runCliAsync(['export', 'refund-agent', '--otlp', '--endpoint', receiver.url, '--header', 'Authorization=Bearer secret-token'], cwd)
    expect(result).toEqual({ code: 0, stdout: `sent 10 spans of 2 runs to ${receiver.url}/v1/traces\n`, stderr: '' })
    const [request] = receiver.received
    expect([receiver.received.length, request!.method, request!.path, request!.headers['content-type'], request!.headers.authorization]).toEqual([
      1,
      'POST',
      '/v1/traces',
      'application/json',
      'Bearer secret-token',
    ])
    const body = JSON.parse(request!.body) as unknown
    expect(hexIds(decodeWithOtlpDefinitions(body))).toEqual(withStringInts(body))
    expect(`${request!.body}\n`).toBe(runCli(['export', 'refund-agent', '--otlp'], cwd).stdout)
  })

  it("fails with exit 2 and the receiver's answer when it refuses the spans, or when nothing listens", async () => {
    const receiver = await startReceiver(503)
    const cwd = traceDirWith(sampleRuns())
    expect(await runCliAsync(['export', 'refund-agent', '--otlp', '--endpoint', `${receiver.url}/custom/path`], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `reagent-flow export: Could not send the spans to ${receiver.url}/custom/path: the receiver answered 503: {"code":13,"message":"storage is full"}. ` +
        'Check that an OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger, Tempo, Phoenix, Langfuse) listens there, or write them to a file with --out.\n',
    })
    const url = await closedPortUrl()
    const refused = await runCliAsync(['export', 'refund-agent', '--otlp', '--endpoint', url], cwd)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(
      new RegExp(`^reagent-flow export: Could not send the spans to ${url}/v1/traces: no answer \\(.*ECONNREFUSED.*\\)\\. Check that`),
    )
  })

  it('asks for the format, and refuses a header without a value or an endpoint that is not a URL, before reading anything', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['export', 'refund-agent'], cwd).stderr).toBe(
      'reagent-flow export: choose the output format: --otlp (OTLP/JSON spans in the GenAI conventions, the one format so far)\n',
    )
    expect(runCli(['export', 'refund-agent', '--otlp', '--endpoint', 'http://x', '--header', 'Authorization'], cwd).stderr).toBe(
      'reagent-flow export: --header must be name=value (as --header "Authorization=Bearer ..."); got "Authorization"\n',
    )
    expect(runCli(['export', 'refund-agent', '--otlp', '--endpoint', 'localhost:4318'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow export: The OTLP endpoint localhost:4318 must be http: or https:, got localhost:\n',
    })
  })
})
