/**
 * What reaches the disk when the process recording a session ends before
 * the session closes: killed (SIGKILL), out of memory, interrupted (SIGINT,
 * SIGTERM), or exiting. Each agent runs in a child process.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { startChildAgent } from '../helpers/child-agent.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli } from '../cli/run-cli.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A tool loop that never ends on its own: one turn every 10 ms, each reported once logged. */
const ENDLESS_AGENT = `
  await session('endless-agent', { traceDir }, async (s) => {
    for (let i = 0; ; i++) {
      s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'turn ' + i } }], model: 'gpt-4o', tokenUsage: { input_tokens: 10, output_tokens: 2 } })
      s.logToolResult('search', { result: { hits: i } })
      report()
      await sleep(10)
    }
  })
`

const queries = (path: string): string[] => loadTrace(path).turns.map((turn) => String(turn.llm_call.tool_calls[0]?.arguments.q))

describe('a process killed while its session is open (SIGKILL)', () => {
  it('leaves every turn recorded more than 100 ms before it died, read back as an interrupted run that replaces the previous one', async () => {
    const traceDir = tempDir()
    // An earlier run of the same name that completed: the file that used to look like the latest run.
    await session('endless-agent', { traceDir }, (s) => void s.logLlmCall({ responseText: 'an earlier run' }))
    const agent = startChildAgent(ENDLESS_AGENT, { traceDir })
    await agent.waitForTurns(20)
    await sleep(120)
    const killedAt = performance.now()
    agent.child.kill('SIGKILL')
    expect(await agent.exited).toEqual({ code: null, signal: 'SIGKILL' })

    const surelyOnDisk = agent.turns.filter((reportedAt) => reportedAt < killedAt - 100).length
    expect(surelyOnDisk).toBeGreaterThanOrEqual(20)
    const path = join(traceDir, 'endless-agent.trace.json')
    const trace = loadTrace(path)
    expect(trace.status).toBe('interrupted')
    expect(trace.interruption_reason).toBe(`process ${agent.child.pid} exited before the session closed`)
    expect(trace.ended_at).toBeGreaterThan(trace.started_at)
    expect(trace.turns.length).toBeGreaterThanOrEqual(surelyOnDisk)
    expect(queries(path)).toEqual(trace.turns.map((_, i) => `turn ${i}`))
    expect(trace.turns.every((turn) => turn.tool_results.length === 1)).toBe(true)
    // Recovered into the trace file; the journal is kept, closed, for resuming.
    expect(readdirSync(traceDir).filter((name) => name.endsWith('.journal.jsonl'))).toHaveLength(1)
  })

  it('is listed as interrupted by the CLI, and approve --all leaves it out', async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(ENDLESS_AGENT, { traceDir: join(traceDir, '.reagent') })
    await agent.waitForTurns(5)
    await sleep(120)
    agent.child.kill('SIGKILL')
    await agent.exited

    const listed = runCli(['list', '--status', 'interrupted', '--json'], traceDir)
    expect(listed.stderr).toBe('')
    const json = JSON.parse(listed.stdout) as { runs: Array<{ name: string; status: string; turns: number }> }
    expect(json.runs).toMatchObject([{ name: 'endless-agent', status: 'interrupted' }])
    expect(json.runs[0]!.turns).toBeGreaterThanOrEqual(5)
    const approve = runCli(['approve', '--all'], traceDir)
    expect(approve.code).toBe(0)
    expect(approve.stderr).toBe(
      `reagent-flow approve: skipped ${join('.reagent', 'endless-agent.trace.json')}: the run is interrupted (process ${agent.child.pid} exited before the session closed); name it to approve it anyway\n`,
    )
    expect(approve.stdout).toContain('0 goldens: 0 created, 0 updated, 0 unchanged')
  })
})

describe('a process that runs out of memory while its session is open', () => {
  it('leaves what it recorded while its event loop was free, as an interrupted run', async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(
      `
      await session('hungry-agent', { traceDir }, async (s) => {
        for (let i = 0; i < 12; i++) {
          s.logLlmCall({ toolCalls: [{ name: 'load', arguments: { part: i } }] })
          s.logToolResult('load', { result: 'ok' })
          report()
        }
        await sleep(150)
        const hoard = []
        for (;;) hoard.push(new Array(1e5).fill({ i: hoard.length }))
      })
      `,
      { traceDir, execArgv: ['--max-old-space-size=48'] },
    )
    await agent.waitForTurns(12)
    const ended = await agent.exited
    expect(ended.code === 134 || ended.signal === 'SIGABRT' || ended.signal === 'SIGKILL').toBe(true)
    expect(agent.output()).toContain('heap out of memory')
    const trace = loadTrace(join(traceDir, 'hungry-agent.trace.json'))
    expect(trace.status).toBe('interrupted')
    expect(trace.turns.map((turn) => turn.llm_call.tool_calls[0]!.arguments.part)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  })
})

describe.each(['SIGINT', 'SIGTERM'] as const)('a process sent %s while its session is open', (signal) => {
  it('writes the session as cancelled with the signal as its reason, then dies by the signal as it would have without reagent-flow', async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(ENDLESS_AGENT.replace('await sleep(10)', 'await sleep(i < 3 ? 10 : 60_000)'), { traceDir })
    await agent.waitForTurns(4)
    agent.child.kill(signal)
    expect(await agent.exited).toEqual({ code: null, signal })
    const trace = loadTrace(join(traceDir, 'endless-agent.trace.json'))
    expect(trace).toMatchObject({ status: 'cancelled', interruption_reason: signal, error: null })
    expect(queries(join(traceDir, 'endless-agent.trace.json'))).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 3'])
    expect(readdirSync(traceDir).filter((name) => name.endsWith('.journal.jsonl'))).toHaveLength(1)
  })

  it("leaves the process to the user's own handler when there is one", async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(
      `
      process.on('${signal}', () => { console.log('user handler ran'); setTimeout(() => process.exit(7), 20) })
      ${ENDLESS_AGENT.replace('await sleep(10)', 'await sleep(i < 1 ? 10 : 60_000)')}
      `,
      { traceDir },
    )
    await agent.waitForTurns(2)
    agent.child.kill(signal)
    expect(await agent.exited).toEqual({ code: 7, signal: null })
    expect(agent.output()).toBe('user handler ran\n')
    expect(loadTrace(join(traceDir, 'endless-agent.trace.json'))).toMatchObject({ status: 'cancelled', interruption_reason: signal })
  })
})

describe('a process that exits while its session is open', () => {
  it('writes the session as interrupted, "process exited before the session closed"', async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(
      `
      await session('exiting-agent', { traceDir }, async (s) => {
        s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: { id: 1 } }] })
        report()
        process.exit(3)
      })
      `,
      { traceDir },
    )
    expect(await agent.exited).toEqual({ code: 3, signal: null })
    const trace = loadTrace(join(traceDir, 'exiting-agent.trace.json'))
    expect(trace).toMatchObject({ status: 'interrupted', interruption_reason: 'process exited before the session closed' })
    expect(trace.turns).toHaveLength(1)
  })

  it('leaves no signal or exit listener behind once no session is open', async () => {
    const before = ['SIGINT', 'SIGTERM', 'exit'].map((event) => process.listenerCount(event))
    let during: number[] = []
    await session('listeners', { traceDir: tempDir() }, () => {
      during = ['SIGINT', 'SIGTERM', 'exit'].map((event) => process.listenerCount(event))
    })
    expect(during).toEqual(before.map((count, i) => count + (i < 2 ? 1 : 2)))
    expect(['SIGINT', 'SIGTERM', 'exit'].map((event) => process.listenerCount(event))).toEqual(before)
  })
})
