/**
 * session() never waits on the ledger: a ledger that never answers costs the
 * test nothing, and the runs a stopped ledger missed are kept in the outbox
 * (redacted as their trace files are) until `reagent-flow ledger push` sends
 * them, once each.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { session } from '../../src/entries/index.js'
import { settleHandedOff } from '../../src/session/handed-off.js'
import { CLI, runCliAsync } from '../cli/run-cli.js'
import { captureWarnings } from '../helpers/warnings.js'
import { tempDir } from '../helpers/temp-dir.js'
import { post, spawnServe } from './serve-process.js'

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwx'

/** A TCP server that accepts connections and never answers: a ledger lost in the network. */
async function blackHole(): Promise<string> {
  const sockets: Socket[] = []
  const server = createServer((socket) => void sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

describe('session() and a ledger that is slow or down', () => {
  it('returns without waiting on a ledger that never answers: neither run.begin before the function nor run.complete after it', async () => {
    const url = await blackHole()
    captureWarnings()
    const started = performance.now()
    const s = await session('patient-agent', { traceDir: tempDir(), ledger: { url, timeoutMs: 20_000 } }, (run) => {
      run.logLlmCall({ responseText: 'Done.' })
      return 'ok'
    })
    expect(performance.now() - started).toBeLessThan(1000)
    expect([s.output, s.path === undefined]).toEqual(['ok', false])
  })

  it('keeps the run of a process that exits while the ledger has not answered', async () => {
    const url = await blackHole()
    const traceDir = tempDir()
    const entry = join(CLI, '../../entries/index.js')
    const script = `
      const { session } = await import(${JSON.stringify(entry)})
      const s = await session('exiting-agent', { traceDir: ${JSON.stringify(traceDir)}, ledger: { url: ${JSON.stringify(url)}, timeoutMs: 60000 } }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100))
        return 'ok'
      })
      console.log(s.traceId)
      process.exit(0)`
    const started = performance.now()
    // Synchronous: this process does not even accept() meanwhile; the kernel's backlog takes the connection, nothing answers.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(performance.now() - started).toBeLessThan(5000)
    const runId = child.stdout.trim()
    expect([child.status, readdirSync(join(traceDir, 'ledger-outbox'))]).toEqual([0, [`${runId}.json`]])
    expect(JSON.parse(readFileSync(join(traceDir, 'ledger-outbox', `${runId}.json`), 'utf8'))).toMatchObject({
      ledger: url,
      run_id: runId,
      begin: { agent: 'exiting-agent' },
      complete: { status: 'completed' },
      reason: 'the process exited before the ledger answered',
    })
  })

  it('keeps nothing for a session with `save: false`: it writes no file, and so no unsent run', async () => {
    const cwd = tempDir()
    const stopped = await spawnServe([], cwd)
    stopped.child.kill('SIGTERM')
    await stopped.exited
    const warnings = captureWarnings()
    const traceDir = tempDir()
    await session('unsaved-agent', { traceDir, save: false, ledger: stopped.url }, () => 'ok')
    await settleHandedOff(10_000)
    expect(readdirSync(traceDir)).toEqual([])
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      `reagent-flow: session "unsaved-agent": the run was not reported to the ledger at ${stopped.url}: run.begin: could not reach the ledger at ${stopped.url}/v1/run.begin (ECONNREFUSED). ` +
        'The test goes on and its trace is written locally; further ledger failures in this process are not reported.',
    ])
  })

  it('keeps the runs a stopped ledger missed, redacted, and `ledger push` sends them once each', async () => {
    const cwd = tempDir()
    const first = await spawnServe([], cwd)
    first.child.kill('SIGTERM')
    await first.exited
    const warnings = captureWarnings()
    const traceDir = tempDir()
    const ids: string[] = []
    const started = performance.now()
    for (const name of ['refund-agent', 'search-agent']) {
      const s = await session(name, { traceDir, ledger: first.url, metadata: { goal: `Refund with ${KEY}` } }, (run) => {
        run.logLlmCall({ responseText: `Your key is ${KEY}.` })
      })
      ids.push(s.traceId)
    }
    expect(performance.now() - started).toBeLessThan(2000)
    await settleHandedOff(10_000)

    const outbox = join(traceDir, 'ledger-outbox')
    expect(readdirSync(outbox).sort()).toEqual(ids.map((id) => `${id}.json`).sort())
    const spooled = readFileSync(join(outbox, `${ids[0]}.json`), 'utf8')
    expect(spooled).not.toContain(KEY)
    expect(JSON.parse(spooled)).toMatchObject({
      ledger: first.url,
      run_id: ids[0],
      begin: { agent: 'refund-agent', goal: 'Refund with [REDACTED]', run_id: ids[0] },
      complete: { run_id: ids[0], status: 'completed', final_response: 'Your key is [REDACTED].' },
      trace: { trace_id: ids[0], name: 'refund-agent' },
      reason: expect.stringContaining('ECONNREFUSED'),
    })
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      `reagent-flow: session "refund-agent": the run was not reported to the ledger at ${first.url}: run.begin: could not reach the ledger at ${first.url}/v1/run.begin (ECONNREFUSED). ` +
        `The test goes on; the run is kept in ${outbox} until reagent-flow ledger push --dir ${traceDir} sends it; further ledger failures in this process are not reported.`,
    ])

    const second = await spawnServe([], cwd)
    const kept = join(tempDir(), 'kept.json')
    copyFileSync(join(outbox, `${ids[0]}.json`), kept)
    const pushed = await runCliAsync(['ledger', 'push', '--ledger', second.url, '--dir', traceDir], cwd)
    // In the order of the outbox's file names.
    const sent = [`sent ${ids[0]} (refund-agent) to ${second.url}`, `sent ${ids[1]} (search-agent) to ${second.url}`]
    if (ids[1]! < ids[0]!) sent.reverse()
    expect([pushed.code, pushed.stderr, pushed.stdout]).toEqual([0, '', `${sent.join('\n')}\n2 run(s) sent, 0 not sent\n`])
    expect(readdirSync(outbox)).toEqual([])
    const got = await post<{ run: Record<string, unknown> }>(second.url, 'run.get', { run_id: ids[0] })
    expect(got.body.run).toMatchObject({
      run_id: ids[0],
      agent: 'refund-agent',
      status: 'completed',
      goal: 'Refund with [REDACTED]',
      final_response: 'Your key is [REDACTED].',
    })
    const trace = await post<{ trace: { trace_id: string } | null }>(second.url, 'trace.get', { run_id: ids[0] })
    expect(trace.body.trace?.trace_id).toBe(ids[0])

    // Pushed again (a copy left behind): the ledger has it, and keeps it once.
    copyFileSync(kept, join(outbox, `${ids[0]}.json`))
    const again = await runCliAsync(['ledger', 'push', '--ledger', second.url, '--dir', traceDir], cwd)
    expect([again.code, again.stdout]).toEqual([0, `sent ${ids[0]} (refund-agent) to ${second.url}\n1 run(s) sent, 0 not sent\n`])
    expect((await post<{ total: number }>(second.url, 'run.list', {})).body.total).toBe(2)
    const empty = await runCliAsync(['ledger', 'push', '--ledger', second.url, '--dir', traceDir], cwd)
    expect([empty.code, empty.stdout]).toEqual([0, `0 run(s) sent, 0 not sent (${outbox} holds none)\n`])
  })

  it('`ledger push` keeps what the ledger could not take, says why, and exits 1', async () => {
    const cwd = tempDir()
    const stopped = await spawnServe([], cwd)
    stopped.child.kill('SIGTERM')
    await stopped.exited
    captureWarnings()
    const traceDir = tempDir()
    const s = await session('agent', { traceDir, ledger: stopped.url }, () => 'ok')
    await settleHandedOff(10_000)
    const pushed = await runCliAsync(['ledger', 'push', '--dir', traceDir], cwd)
    expect(pushed.code).toBe(1)
    expect(pushed.stderr).toBe(
      `reagent-flow ledger push: not sent ${s.traceId} (agent): run.begin: could not reach the ledger at ${stopped.url}/v1/run.begin (ECONNREFUSED); it stays in ${join(traceDir, 'ledger-outbox')}\n`,
    )
    expect(pushed.stdout).toBe('0 run(s) sent, 1 not sent\n')
    expect(readdirSync(join(traceDir, 'ledger-outbox'))).toEqual([`${s.traceId}.json`])
  })
})
