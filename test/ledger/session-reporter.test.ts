import { writeFileSync } from 'node:fs'
import { request as httpRequest, createServer as createHttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { ledgerSent } from '../../src/entries/ledger.js'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { settleHandedOff } from '../../src/session/handed-off.js'
import { captureWarnings } from '../helpers/warnings.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger } from './harness.js'

afterEach(() => vi.unstubAllEnvs())

/** A loopback port nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/** A server that accepts connections and never answers. */
async function silentUrl(): Promise<string> {
  const sockets: Array<{ destroy(): void }> = []
  const server: Server = createServer((socket) => void sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

/** A proxy to `target` that holds run.complete and trace.put for `delayMs` before passing them on. */
async function slowUrl(target: string, delayMs: number): Promise<string> {
  const server = createHttpServer((incoming, outgoing) => {
    const slow = incoming.url === '/v1/run.complete' || incoming.url === '/v1/trace.put'
    setTimeout(
      () => {
        const forward = httpRequest(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        })
        forward.on('error', () => outgoing.destroy())
        incoming.pipe(forward)
      },
      slow ? delayMs : 0,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => void server.close())
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

describe('session() reporting to a ledger', () => {
  it('resolves before its run is completed in the ledger, and ledgerSent(s) waits for that one session only', async () => {
    const ledger = await startDirectoryLedger()
    const traceDir = tempDir()
    const stuck = await session('stuck-agent', { traceDir, ledger: { url: await silentUrl(), timeoutMs: 60_000 } }, async () => 'ok')
    const s = await session('refund-agent', { traceDir, ledger: await slowUrl(ledger.url, 400) }, async (s) => {
      s.logLlmCall({ model: 'gpt-4o', responseText: 'Refunded.' })
    })
    // Not yet completed: its run.begin may not even have landed (sent, never waited for), its run.complete is held 400 ms.
    const early = (await ledger.call<{ run: { status: string } | null }>('run.get', { run_id: s.traceId })).body.run
    expect(early?.status ?? 'not there yet').toMatch(/^(active|not there yet)$/)

    const started = Date.now()
    await ledgerSent(s) // not held by the stuck session's sends, which wait a minute for an answer
    expect(Date.now() - started).toBeLessThan(30_000)
    expect((await ledger.call('run.get', { run_id: s.traceId })).body).toMatchObject({ run: { status: 'completed', final_response: 'Refunded.' } })
    expect((await ledger.call('trace.get', { run_id: s.traceId })).body).toMatchObject({ trace: { trace_id: s.traceId } })
    await ledgerSent(stuck.traceId.replace(/./g, 'x')) // a trace id with nothing handed off resolves at once
  })

  it('ledgerSent of a session without a ledger resolves at once', async () => {
    const s = await session('offline', { traceDir: tempDir(), ledger: false }, async () => 'ok')
    await expect(ledgerSent(s)).resolves.toBeUndefined()
  })

  it('completes the run in the ledger even when its golden cannot be compared (a bad REAGENT_UPDATE)', async () => {
    const ledger = await startDirectoryLedger()
    vi.stubEnv('REAGENT_UPDATE', 'sometimes')
    let traceId = ''
    const error = await session('golden-agent', { traceDir: tempDir(), ledger: ledger.url, golden: true }, (s) => {
      traceId = s.traceId
      s.logLlmCall({ responseText: 'Done.' })
    }).catch((thrown: unknown) => thrown)

    expect(error).toBeInstanceOf(TypeError)
    await vi.waitFor(async () => expect((await ledger.call('run.get', { run_id: traceId })).body).toMatchObject({ run: { status: 'completed' } }))
  })

  it('sends the ledger what the trace file holds: its secrets redacted in the metadata, the answer and the error too', async () => {
    const ledger = await startDirectoryLedger()
    const key = 'sk-proj-abcdefghijklmnopqrstuvwx'
    const failed = await session('leaky-agent', { traceDir: tempDir(), ledger: ledger.url, metadata: { goal: `Refund with ${key}`, api_key: key } }, (s) => {
      s.logLlmCall({ responseText: `Your key is ${key}.` })
      throw new Error(`upstream rejected ${key}`)
    }).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(Error)
    await settleHandedOff(10_000)

    const { runs } = (await ledger.call<{ runs: Array<Record<string, unknown>> }>('run.list', { agent: 'leaky-agent', fields: ['run_id'] })).body
    const reply = await ledger.call<Record<string, unknown>>('run.get', { run_id: runs[0]!['run_id'] })
    expect(JSON.stringify(reply.body)).not.toContain(key)
    expect(reply.body).toMatchObject({
      run: {
        goal: 'Refund with [REDACTED]',
        final_response: 'Your key is [REDACTED].',
        metadata: { api_key: '[REDACTED]', error: 'Error: upstream rejected [REDACTED]' },
      },
    })
  })

  it('sends the user and session ids as the trace file holds them: a secret in them redacted', async () => {
    const ledger = await startDirectoryLedger()
    const key = 'sk-proj-abcdefghijklmnopqrstuvwx'
    const traceDir = tempDir()
    const s = await session('id-agent', { traceDir, ledger: ledger.url, userId: `alice ${key}`, sessionId: `support ${key}` }, (run) => {
      run.logLlmCall({ responseText: 'Done.' })
    })

    const file = loadTrace(join(traceDir, 'id-agent.trace.json'))
    expect([file.user_id, file.session_id]).toEqual(['alice [REDACTED]', 'support [REDACTED]'])
    await vi.waitFor(async () => expect((await ledger.call('run.get', { run_id: s.traceId })).body).toMatchObject({ run: { status: 'completed' } }))
    const reply = await ledger.call<{ run: Record<string, unknown> }>('run.get', { run_id: s.traceId })
    expect(JSON.stringify(reply.body)).not.toContain(key)
    expect([reply.body.run['user_id'], reply.body.run['session_id']]).toEqual(['alice [REDACTED]', 'support [REDACTED]'])
  })

  it('begins the run when the session opens, completes it and uploads its trace when it closes', async () => {
    const ledger = await startDirectoryLedger()
    const traceDir = tempDir()
    const s = await session(
      'refund-agent',
      { traceDir, ledger: ledger.url, sessionId: 'conv-1', metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 60 } },
      async (s) => {
        // The run is open in the ledger while the agent works (run.begin is sent as it opens, not waited for).
        await vi.waitFor(async () => expect((await ledger.call('run.get', { run_id: s.traceId })).body).toMatchObject({ run: { status: 'active' } }))
        s.logLlmCall({
          model: 'gpt-4o',
          tokenUsage: { input_tokens: 1000, output_tokens: 100 },
          toolCalls: [{ name: 'refund', arguments: { api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' } }],
        })
        s.logToolResult('refund', { result: { ok: true } })
        s.logLlmCall({ model: 'gpt-4o', responseText: 'Refunded $19.99.' })
      },
    )
    await settleHandedOff(10_000)
    const reply = await ledger.call<Record<string, unknown>>('run.get', { run_id: s.traceId })
    expect(reply.body).toMatchObject({
      found: true,
      run: {
        run_id: s.traceId,
        agent: 'refund-agent',
        goal: 'Refund order 42',
        session_id: 'conv-1',
        user_id: '-',
        status: 'completed',
        final_response: 'Refunded $19.99.',
        consumer: 'reagent-flow',
        environment: expect.stringMatching(/^(ci|local)$/),
        budget_usd: 0.01,
        budget_seconds: 60,
        metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 60 },
      },
      turns: 2,
      unpriced_turns: 1,
      cost_usd: expect.closeTo(0.0035, 12),
    })
    const uploaded = loadTrace(join(ledger.store.location, 'ledger', ledger.org, 'default', `${s.traceId}.trace.json`))
    expect(uploaded.turns[0]!.llm_call.tool_calls[0]!.arguments).toEqual({ api_key: '[REDACTED]' })
    expect(loadTrace(s.path!).trace_id).toBe(s.traceId)
  })

  it("reports a failed run with its error, and rethrows the agent's error unchanged", async () => {
    const ledger = await startDirectoryLedger()
    const error = new RangeError('order 42 not found')
    let traceId = ''
    await expect(
      session('refund-agent', { traceDir: tempDir(), ledger: { url: ledger.url } }, (s) => {
        traceId = s.traceId
        throw error
      }),
    ).rejects.toBe(error)
    await settleHandedOff(10_000)
    expect((await ledger.call('run.get', { run_id: traceId })).body).toMatchObject({
      run: { status: 'failed', goal: 'refund-agent', metadata: { error: 'RangeError: order 42 not found' } },
    })
  })

  it('reads REAGENT_LEDGER_URL and REAGENT_LEDGER_TOKEN, and `ledger: false` opts out of them', async () => {
    const file = join(tempDir(), 'tokens.json')
    writeFileSync(file, JSON.stringify({ tokens: [{ name: 'ci', token: 'ci-token-0123456789', org: 'acme', namespace: 'ci' }] }))
    const ledger = await startDirectoryLedger({ tokens: readTokenFile(file) })
    vi.stubEnv('REAGENT_LEDGER_URL', `${ledger.url}/v1`)
    vi.stubEnv('REAGENT_LEDGER_TOKEN', 'ci-token-0123456789')
    const reported = await session('ci-agent', { traceDir: tempDir() }, () => 'ok')
    const quiet = await session('quiet-agent', { traceDir: tempDir(), ledger: false }, () => 'ok')
    await settleHandedOff(10_000)
    const list = await ledger.call<{ runs: Array<{ run_id: string }> }>('run.list', { fields: ['run_id'] }, { token: 'ci-token-0123456789' })
    expect(list.body).toEqual({ runs: [{ run_id: reported.traceId }], total: 1, next_cursor: null })
    expect(quiet.traceId).not.toBe(reported.traceId)
  })

  it('warns once when the ledger is down, and the test and its trace go on', async () => {
    const url = await deadUrl()
    const warnings = captureWarnings()
    const traceDir = tempDir()
    const first = await session('agent-a', { traceDir, ledger: url }, (s) => void s.logLlmCall({ responseText: 'hi' }))
    const second = await session('agent-b', { traceDir, ledger: url }, () => 'ok')
    await settleHandedOff(10_000)
    expect(loadTrace(first.path!).turns).toHaveLength(1)
    expect(second.output).toBe('ok')
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_LEDGER',
        message:
          `reagent-flow: session "agent-a": the run was not reported to the ledger at ${url}: run.begin: could not reach the ledger at ${url}/v1/run.begin (ECONNREFUSED). ` +
          `The test goes on; the run is kept in ${join(traceDir, 'ledger-outbox')} until reagent-flow ledger push --dir ${traceDir} sends it; further ledger failures in this process are not reported.`,
      },
    ])
  })

  it('gives up on a ledger that does not answer after timeoutMs', async () => {
    const url = await silentUrl()
    const warnings = captureWarnings()
    const started = performance.now()
    const s = await session('patient-agent', { traceDir: tempDir(), ledger: { url, timeoutMs: 200 } }, () => 'ok')
    expect(performance.now() - started).toBeLessThan(5000)
    await settleHandedOff(10_000)
    expect(s.path).toBeDefined()
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      expect.stringContaining(`run.begin: could not reach the ledger at ${url}/v1/run.begin (no answer within 200 ms)`),
    ])
  })

  it('warns once about a run the ledger refuses, naming its answer', async () => {
    const ledger = await startDirectoryLedger()
    const warnings = captureWarnings()
    // An empty goal is the name's: no refusal there.
    await session('agent', { traceDir: tempDir(), ledger: ledger.url, metadata: { goal: '' } }, () => 'ok')
    await settleHandedOff(10_000)
    expect(await warnings.seen()).toEqual([])
    const s = await session('agent', { traceDir: tempDir(), ledger: ledger.url, userId: 'u'.repeat(300) }, () => 'ok')
    await settleHandedOff(10_000)
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      `reagent-flow: session "agent": the run was not reported to the ledger at ${ledger.url}: run.begin: the ledger at ${ledger.url}/v1/run.begin answered 422 invalid_input: run.begin: user_id must be at most 256 characters (rule: maxLength). ` +
        'The test goes on and its trace is written locally; further ledger failures in this process are not reported.',
    ])
    expect(s.output).toBe('ok')
  })

  it('refuses a ledger option that is not a URL, naming the valid forms', async () => {
    await expect(session('x', { ledger: 'localhost:4319' }, () => 1)).rejects.toThrow(
      new TypeError(`session() option "ledger" must be 'http://127.0.0.1:4319', { url, token }, or false; got "localhost:4319".`),
    )
  })
})
